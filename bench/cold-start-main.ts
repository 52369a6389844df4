// Only the cold-start row of the agent loop: process start → first page answered, whole process each,
// `webcap mcp` (stdio: initialize → web_open answered) against @playwright/mcp and a node launch + goto script,
// interleaved in one run. Run: npx tsc -p tsconfig.json && BENCH_N=7 node dist/bench/cold-start-main.js
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { coldStart } from './agent-loop.js';

const n = Number(process.env.BENCH_N ?? 7);
const site = await serve({ '/form': (_q, res) => send(res, html('<h1>Sign up</h1><input id="name" aria-label="Name"><button id="go">Go</button>')) });
const before = loadavg()[0];
const row = await coldStart(site, mkdtempSync(join(tmpdir(), 'webcap-cold-')), (await findChromium())!.path, n);
await site.close();
const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(0));
process.stdout.write(`cold start, N=${n} each, interleaved; load average ${before.toFixed(1)} → ${loadavg()[0].toFixed(1)}
| webcap mcp | @playwright/mcp | node launch + goto | webcap ÷ @playwright/mcp | ≤ @playwright/mcp |
|---:|---:|---:|---:|---|
| ${f(row.webcap)} | ${f(row.playwrightMcp)} | ${f(row.agentBrowser)} | ${row.playwrightMcp ? (row.webcap / row.playwrightMcp).toFixed(2) : 'n/a'} | ${row.playwrightMcp && row.webcap <= row.playwrightMcp ? 'yes' : 'NO'} |
`);
