// Before/after in one run: the same actions as action-layers.ts through this
// build's sidecar and through another build's (BENCH_BASE: the root of another
// checkout, built), each alone over JSON-RPC and behind `webcap mcp` over
// stdio (after_action = "none"), beside raw Playwright. Every round runs all
// five in a new random order, so machine load hits them alike. Only the sidecar differs
// between the two sides (WEBCAP_SIDECAR_ENTRY); the host is this build's.
//   BENCH_BASE=/tmp/base BENCH_N=20 node dist/bench/action-ab.js   (BENCH_ACTIONS=web.navigate: that row only)
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright';
import { builtEntry } from '../manifests/built-entry.js';
import { projectRoot } from '../manifests/load.js';
import { installedSidecarEntry } from '../host/sidecar-link/attestation.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { send, serve } from '../tests/helpers/fixture-server.js';
import { bareSidecar } from './bare-sidecar.js';
import { benchConfig, writeConfig } from './bench-config.js';
import { ACTIONS, PAGE, rawActions } from './action-layers.js';
import { median, timed } from './stats.js';

const base = process.env.BENCH_BASE;
if (!base) throw new Error('set BENCH_BASE to the root of another built checkout');
const n = Number(process.env.BENCH_N ?? 20);
const entries = { before: builtEntry(base, join(base, 'dist', 'sidecar', 'main.js')), after: installedSidecarEntry() };

// BENCH_ROBOTS=1: robots.txt checked on every navigation, as by default (the fixture has none: allowed, cached after the first).
const robots = process.env.BENCH_ROBOTS === '1';
const site = await serve({ '/form': (_q, res) => send(res, PAGE) });
const url = site.url('127.0.0.1', '/form');
const dir = mkdtempSync(join(tmpdir(), 'webcap-ab-'));
const config = {
  capabilities: { browser: { domains_allowlist: ['127.0.0.1'], respect_robots: robots, max_actions_per_minute: 1_000_000 } },
  network: { allow_private: ['127.0.0.1'] }, chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: join(dir, 'ws') },
  logging: { level: 'warn', file: join(dir, 'webcap.log') },
};
const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox'] });
const page = await (await browser.newContext()).newPage();
await page.goto(url);

async function side(name: 'before' | 'after') {
  process.env.WEBCAP_SIDECAR_ENTRY = entries[name];
  const bare = bareSidecar(config);
  const { session } = await bare.invoke('web.open', { url }, 30_000, 'bench') as { session: string };
  const file = join(dir, `${name}.toml`);
  writeConfig(file, benchConfig(dir, { name, robots, afterAction: 'none' }));
  const mcp = new Client({ name: `ab-${name}`, version: '1' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', file], env: { ...process.env, WEBCAP_SIDECAR_ENTRY: entries[name] } as Record<string, string>, stderr: 'ignore' }));
  await mcp.callTool({ name: 'web_open', arguments: { url } });
  delete process.env.WEBCAP_SIDECAR_ENTRY;
  return { bare, session, mcp };
}

const before = await side('before');
const after = await side('after');
const raw = rawActions(page, url);
const load = () => loadavg()[0].toFixed(1);
const lines = [`load average ${load()} at the start`, '| action (median ms) | raw Playwright | sidecar before | sidecar after | MCP before | MCP after | MCP ÷ raw before | after |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
const mcpCall = (c: Client, cap: string, args: Record<string, unknown>) => async () => {
  const r = await c.callTool({ name: cap.replace(/\./g, '_'), arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r.content));
};
try {
  // BENCH_ACTIONS=web.navigate,web.click: only those rows.
  const only = process.env.BENCH_ACTIONS?.split(',');
  for (const [cap, fixed] of ACTIONS.filter(([id]) => !only || only.includes(id))) {
    const params = cap === 'web.navigate' ? { url } : fixed;
    const runs = [
      () => raw[cap](),
      () => before.bare.invoke(cap, { ...params, session: before.session }, 30_000, 'bench'),
      () => after.bare.invoke(cap, { ...params, session: after.session }, 30_000, 'bench'),
      mcpCall(before.mcp, cap, params),
      mcpCall(after.mcp, cap, params),
    ];
    const s: number[][] = runs.map(() => []);
    for (let i = 0; i < n + 2; i++) {
      // A new order every round: whichever side runs right after another browser's work is not always the same one.
      const order = runs.map((_, k) => k);
      for (let k = order.length - 1; k > 0; k--) { const j = Math.floor(Math.random() * (k + 1)); [order[k], order[j]] = [order[j], order[k]]; }
      for (const which of order) {
        const t = await timed(runs[which]);
        if (i >= 2) s[which].push(t);
      }
    }
    const m = s.map(median);
    lines.push(`| ${cap} | ${m.map((x) => x.toFixed(1)).join(' | ')} | ${(m[3] / m[0]).toFixed(2)} | ${(m[4] / m[0]).toFixed(2)} |`);
  }
  lines.push(`load average ${load()} at the end`);
} finally {
  await before.mcp.close();
  await after.mcp.close();
  await before.bare.close();
  await after.bare.close();
  await browser.close();
  await site.close();
}
process.stdout.write(`${lines.join('\n')}\n`);
