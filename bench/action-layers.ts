// Where an action's time goes: the same action on the same small form page,
// one layer at a time, interleaved in one run — raw Playwright calls, the
// sidecar alone over JSON-RPC (no host), the host in-process (policies, chain,
// redaction), and the whole thing over MCP stdio. Differences between
// adjacent columns are each layer's cost. One more column: the sidecar alone
// with the effect gate off ([consent] gate_requests = false, no robots), whose
// difference to "sidecar alone" is the gate's settle after input actions (a
// page round trip on the watch's CDP session, sidecar/guard/effect-gate.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Page } from 'playwright';
import { createHost } from '../host/host.js';
import { projectRoot } from '../manifests/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { bareSidecar } from './bare-sidecar.js';
import { median, timed } from './stats.js';
import { benchConfig, writeConfig } from './bench-config.js';

export const PAGE = html(`<h1>Sign up</h1><form onsubmit="return false">
  <label for="name">Name</label> <input id="name" name="name">
  <label for="city">City</label> <input id="city" name="city">
  <label for="size">Size</label> <select id="size"><option>S</option><option>M</option><option>L</option></select>
  <button id="go" type="button" onclick="document.getElementById('status').textContent='clicked ' + Date.now()">Go</button>
</form><p id="status">idle</p><a href="/form?2">Other page</a>`);

export const ACTIONS: Array<[string, Record<string, unknown>]> = [
  ['web.click', { selector: '#go' }],
  ['web.fill', { selector: '#name', text: 'hello world' }],
  ['web.type', { selector: '#city', text: 'Lyon' }],
  ['web.select', { selector: '#size', value: 'M' }],
  ['web.keypress', { selector: '#city', keys: ['End'] }],
  ['web.snapshot', {}],
  // Same page again (its URL is filled in per run): a navigation through the guard proxy and the gate.
  ['web.navigate', {}],
];

/** Raw Playwright doing each of ACTIONS on the same page: the reference every layer is measured against. */
export function rawActions(page: Page, url: string): Record<string, () => Promise<unknown>> {
  return {
    'web.click': () => page.click('#go'),
    'web.fill': async () => { await page.fill('#name', 'hello world'); await page.inputValue('#name'); },
    'web.type': () => page.locator('#city').pressSequentially('Lyon'),
    'web.select': () => page.selectOption('#size', 'M'),
    'web.keypress': () => page.press('#city', 'End'),
    'web.snapshot': () => page.locator('body').ariaSnapshot({ mode: 'ai' } as never),
    'web.navigate': () => page.goto(url),
  };
}

export async function actionLayers(n: number): Promise<string> {
  const site = await serve({ '/form': (_q, res) => send(res, PAGE) });
  // BENCH_ROBOTS=1: robots.txt checked on every navigation, as by default (the fixture has none: allowed, cached after the first).
  const robots = process.env.BENCH_ROBOTS === '1';
  const dir = mkdtempSync(join(tmpdir(), 'webcap-layers-'));
  const url = site.url('127.0.0.1', '/form');
  const config = benchConfig(dir, { robots });
  const exe = (await findChromium())!.path;
  const browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox'] });
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  const bare = bareSidecar(config);
  const { session } = await bare.invoke('web.open', { url }, 30_000, 'bench') as { session: string };
  const ungated = bareSidecar({ ...config, consent: { gate_requests: false } });
  const { session: ungatedSession } = await ungated.invoke('web.open', { url }, 30_000, 'bench') as { session: string };
  const host = createHost({ config });
  await host.call('web.open', { url });
  const configFile = writeConfig(join(dir, 'mcp-none.toml'), benchConfig(dir, { name: 'mcp-none', robots, afterAction: 'none' }));
  const mcp = new Client({ name: 'layers', version: '1' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', configFile], stderr: 'ignore' }));
  await mcp.callTool({ name: 'web_open', arguments: { url } });
  // The same server answering each action with what changed on the page ([mcp] after_action = "diff", the default).
  const diffFile = writeConfig(join(dir, 'mcp-diff.toml'), benchConfig(dir, { name: 'mcp-diff', robots }));
  const mcpDiff = new Client({ name: 'layers-diff', version: '1' });
  await mcpDiff.connect(new StdioClientTransport({ command: process.execPath, args: [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', diffFile], stderr: 'ignore' }));
  await mcpDiff.callTool({ name: 'web_open', arguments: { url } });
  const raw = rawActions(page, url);
  const lines = ['| action (median ms) | raw Playwright | sidecar, effect gate off | sidecar alone | host in-process | MCP stdio (after_action none) | MCP stdio (diff answer) | MCP none ÷ raw |', '|---|---|---|---|---|---|---|---|'];
  try {
    // BENCH_ACTIONS=web.navigate,web.click: only those rows.
    const only = process.env.BENCH_ACTIONS?.split(',');
    for (const [cap, fixed] of ACTIONS.filter(([id]) => !only || only.includes(id))) {
      const params = cap === 'web.navigate' ? { url } : fixed;
      const s: number[][] = [[], [], [], [], [], []];
      const runs = [
        () => raw[cap](),
        () => ungated.invoke(cap, { ...params, session: ungatedSession }, 30_000, 'bench'),
        () => bare.invoke(cap, { ...params, session }, 30_000, 'bench'),
        () => host.call(cap, params),
        async () => { const r = await mcp.callTool({ name: cap.replace(/\./g, '_'), arguments: params }); if (r.isError) throw new Error(JSON.stringify(r.content)); },
        async () => { const r = await mcpDiff.callTool({ name: cap.replace(/\./g, '_'), arguments: params }); if (r.isError) throw new Error(JSON.stringify(r.content)); },
      ];
      for (let i = 0; i < n + 2; i++) {
        for (let k = 0; k < runs.length; k++) {
          const which = (i + k) % runs.length;
          const t = await timed(runs[which]);
          if (i >= 2) s[which].push(t);
        }
      }
      lines.push(`| ${cap} | ${s.map((x) => median(x).toFixed(1)).join(' | ')} | ${(median(s[4]) / median(s[0])).toFixed(2)} |`);
    }
  } finally {
    await mcp.close();
    await mcpDiff.close();
    await host.close();
    await bare.close();
    await ungated.close();
    await browser.close();
    await site.close();
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('action-layers.js')) {
  process.stdout.write(`${await actionLayers(Number(process.env.BENCH_N ?? 20))}\n`);
}
