// Resident memory of the whole process tree (server + sidecar + Chromium, every
// process summed from /proc) with 1 and 3 pages open: webcap mcp (3 sessions)
// against @playwright/mcp (3 tabs, its one context), same page, same run.
// Run: npx tsc -p tsconfig.json && node dist/bench/memory.js (Linux: reads /proc).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { projectRoot } from '../manifests/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';

/**
 * Memory of `root` and all its descendants, MB: summed VmRSS (counts pages the
 * Chromium processes share once per process) and summed PSS (shares split, so
 * the sum is what the tree really holds).
 */
export function treeRssMb(root: number): { rss: number; pss: number } {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try { parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1])); } catch { /* gone */ }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) { grew = false; for (const [pid, pp] of parent) if (tree.has(pp) && !tree.has(pid)) { tree.add(pid); grew = true; } }
  let rss = 0;
  let pss = 0;
  for (const pid of tree) {
    try {
      rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      pss += Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch { /* gone */ }
  }
  return { rss: rss / 1024, pss: pss / 1024 };
}

async function connect(args: string[]): Promise<{ c: Client; pid: number }> {
  const c = new Client({ name: 'memory', version: '1' });
  const t = new StdioClientTransport({ command: process.execPath, args, cwd: projectRoot(), stderr: 'ignore', env: { ...process.env, WEBCAP_CONFIG: '' } as Record<string, string> });
  await c.connect(t);
  return { c, pid: t.pid! };
}

const settle = () => new Promise((r) => setTimeout(r, 2000));

const site = await serve({ '/': (_q, r) => send(r, html(`<h1>Shop</h1>${'<p>Item <a href="/">link</a> <button>Buy</button></p>'.repeat(50)}`)) });
const url = site.url('127.0.0.1', '/');
const dir = mkdtempSync(join(tmpdir(), 'webcap-mem-'));
const config = join(dir, 'agent_config.toml');
writeFileSync(config, `[capabilities.browser]\ndomains_allowlist = ["127.0.0.1"]\nrespect_robots = false\n[network]\nallow_private = ["127.0.0.1"]\n[chain]\npath = "${join(dir, 'chain.jsonl')}"\n[logging]\nfile = "${join(dir, 'w.log')}"\n`);
const rows: string[] = [];
const w = await connect([join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', config]);
await w.c.callTool({ name: 'web_open', arguments: { url } });
await settle();
const w1 = treeRssMb(w.pid);
for (let i = 0; i < 2; i++) await w.c.callTool({ name: 'web_open', arguments: { url } });
await settle();
const w3 = treeRssMb(w.pid);
await w.c.close();
const exe = (await findChromium())!.path;
const p = await connect([join(projectRoot(), 'node_modules', '@playwright', 'mcp', 'cli.js'), '--headless', '--isolated', '--no-sandbox', '--executable-path', exe, '--output-dir', join(dir, 'pw')]);
await p.c.callTool({ name: 'browser_navigate', arguments: { url } });
await settle();
const p1 = treeRssMb(p.pid);
for (let i = 0; i < 2; i++) { await p.c.callTool({ name: 'browser_tabs', arguments: { action: 'new' } }); await p.c.callTool({ name: 'browser_navigate', arguments: { url } }); }
await settle();
const p3 = treeRssMb(p.pid);
await p.c.close();
await site.close();
const f = (m: { rss: number; pss: number }) => `${m.pss.toFixed(0)} | ${m.rss.toFixed(0)}`;
rows.push('| whole process tree (MB) | 1 page: PSS | 1 page: summed RSS | 3 pages: PSS | 3 pages: summed RSS |', '|---|---:|---:|---:|---:|',
  `| webcap mcp (host + sidecar + Chromium; 3 = three sessions) | ${f(w1)} | ${f(w3)} |`,
  `| @playwright/mcp 0.0.83 (3 = three tabs) | ${f(p1)} | ${f(p3)} |`);
console.log(rows.join('\n'));
