// Only the daemon's rows (npm run bench runs them with the rest):
// node dist/bench/daemon-main.js   (BENCH_N=100 clicks by default)
import { chromium } from 'playwright';
import { findChromium, launchArgs } from '../sidecar/browser/find-chromium.js';
import { serve } from '../tests/helpers/fixture-server.js';
import { shopRoutes } from '../tests/fixtures/shop-site.js';
import { daemonRows } from './cli-daemon.js';
import { table } from './stats.js';

const N = Number(process.env.BENCH_N ?? 100);
const site = await serve(shopRoutes);
const resolve = { 'shop.test': '127.0.0.1' };
const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: launchArgs(resolve) });
const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
const rows = await daemonRows((p) => site.url('shop.test', p), resolve, page, N);
await browser.close();
await site.close();
process.stdout.write(`webcap CLI daemon bench, N=${N} clicks (medians)\n\n${table(rows)}\n`);
