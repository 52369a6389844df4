// The reference for `webcap call web.open` cold: a node script that launches
// Chromium and loads the page, as a whole process (node dist/bench/raw-open.js URL RESOLVE_JSON).
import { chromium } from 'playwright';
import { findChromium, launchArgs } from '../sidecar/browser/find-chromium.js';

const [url, resolveJson] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: launchArgs(JSON.parse(resolveJson ?? '{}') as Record<string, string>) });
const page = await (await browser.newContext()).newPage();
const response = await page.goto(url!);
process.stdout.write(`${JSON.stringify({ url: page.url(), title: await page.title(), status: response?.status() ?? null })}\n`);
await browser.close();
