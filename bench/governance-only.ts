// Just the governance row of the bench (npm run build && node dist/bench/governance-only.js):
// the same set-up as run.ts, without the browser-vs-Playwright rows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../tests/helpers/fixture-server.js';
import { shopRoutes } from '../tests/fixtures/shop-site.js';
import { governanceRows } from './governance.js';
import { table } from './stats.js';

const N = Number(process.env.BENCH_N ?? 100);
const site = await serve(shopRoutes);
const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-'));
const config = {
  capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
  network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'webcap.log') },
};
const rows = await governanceRows(config, site.url('shop.test', '/'), N);
await site.close();
process.stdout.write(`webcap bench (governance row), N=${N}\n\n${table(rows)}\n${rows.map((r) => r.note ? `\n${r.name}: ${r.note}` : '').join('')}\n`);
