// The agent loop, side by side: the same small form page, the same actions,
// through each tool's own agent interface — webcap and @playwright/mcp over
// MCP stdio (the SDK client), agent-browser through its CLI (native binary,
// its daemon kept warm). Samples interleave the three, so machine noise hits
// them alike. Also: cold start to the first page answered, whole process each.
// Everything stays on loopback: the page is served from 127.0.0.1 and the two
// peers' browsers get a dead loopback proxy for anything else.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { projectRoot } from '../manifests/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { html, send, serve, type FixtureServer } from '../tests/helpers/fixture-server.js';
import { median, timed } from './stats.js';
import { benchConfig, writeConfig } from './bench-config.js';

const run = promisify(execFile);
const DEAD_PROXY = '--proxy-server=http://127.0.0.1:9';
const PAGE = html(`<h1>Sign up</h1><form onsubmit="return false">
  <label for="name">Name</label> <input id="name" name="name">
  <label for="city">City</label> <input id="city" name="city">
  <button id="go" type="button" onclick="document.getElementById('status').textContent='clicked ' + Date.now()">Go</button>
</form><p id="status">idle</p><a href="/form?2">Other page</a>`);

export interface LoopRow { action: string; webcap: number; agentBrowser: number | null; playwrightMcp: number | null }

type Tool = (action: string, arg?: string) => Promise<unknown>;

export async function agentLoopBench(n: number): Promise<{ rows: LoopRow[]; cold: LoopRow }> {
  const site = await serve({ '/form': (_q, res) => send(res, PAGE) });
  const dir = mkdtempSync(join(tmpdir(), 'webcap-loop-'));
  const exe = (await findChromium())!.path;
  const url = (i: number) => `${site.url('127.0.0.1', '/form')}?${i}`;
  try {
    const cold = await coldStart(site, dir, exe, Math.max(3, Math.min(10, n / 3)));
    const webcap = await webcapMcp(dir, site);
    const ab = agentBrowser(exe);
    const pw = await playwrightMcp(exe, dir);
    const tools: Array<Tool | null> = [webcap.tool, ab.tool, pw?.tool ?? null];
    for (const t of tools) await t?.('navigate', url(0));
    const rows: LoopRow[] = [];
    for (const action of ['navigate', 'click', 'fill', 'type', 'snapshot']) {
      const samples: number[][] = [[], [], []];
      for (let i = 0; i < n; i++) {
        // Rotate who goes first so no tool always runs right after another.
        for (let k = 0; k < 3; k++) {
          const which = (i + k) % 3;
          const tool = tools[which];
          if (tool) samples[which].push(await timed(() => tool(action, action === 'navigate' ? url(i + 1) : undefined)));
        }
      }
      rows.push({ action, webcap: median(samples[0]), agentBrowser: samples[1].length ? median(samples[1]) : null, playwrightMcp: samples[2].length ? median(samples[2]) : null });
    }
    await webcap.close();
    await ab.close();
    await pw?.close();
    return { rows, cold };
  } finally {
    await site.close();
  }
}

function webcapConfig(dir: string, site: FixtureServer): string {
  const file = join(dir, 'agent_config.toml');
  writeConfig(file, benchConfig(dir));
  void site;
  return file;
}

async function mcpClient(command: string, args: string[], cwd?: string): Promise<Client> {
  const client = new Client({ name: 'webcap-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, cwd, stderr: 'ignore' }));
  return client;
}

async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
  if (r.isError) throw new Error(`${name} failed: ${text.slice(0, 300)}`);
  return text;
}

async function webcapMcp(dir: string, site: FixtureServer) {
  const client = await mcpClient(process.execPath, [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', webcapConfig(dir, site)]);
  const tool: Tool = async (action, arg) => {
    switch (action) {
      case 'navigate': return arg && (await opened(client)) ? callOk(client, 'web_navigate', { url: arg }) : callOk(client, 'web_open', { url: arg });
      case 'click': return callOk(client, 'web_click', { selector: '#go' });
      case 'fill': return callOk(client, 'web_fill', { selector: '#name', text: 'hello world' });
      case 'type': return callOk(client, 'web_type', { selector: '#city', text: 'Lyon' });
      default: return callOk(client, 'web_snapshot', {});
    }
  };
  return { tool, close: () => client.close() };
}

const openedClients = new WeakSet<Client>();
async function opened(client: Client): Promise<boolean> {
  if (openedClients.has(client)) return true;
  openedClients.add(client);
  return false;
}

function agentBrowser(exe: string) {
  const bin = join(projectRoot(), 'node_modules', 'agent-browser', 'bin', `agent-browser-${process.platform}-${process.arch}`);
  const base = ['--session', 'webcap-loop', '--executable-path', exe, '--args', `--no-sandbox,--disable-gpu,${DEAD_PROXY}`];
  const cli = async (...args: string[]) => (await run(bin, [...base, ...args], { maxBuffer: 16 << 20 })).stdout;
  const tool: Tool = async (action, arg) => {
    switch (action) {
      case 'navigate': return cli('open', arg!);
      case 'click': return cli('click', '#go');
      case 'fill': return cli('fill', '#name', 'hello world');
      case 'type': return cli('type', '#city', 'Lyon');
      default: return cli('snapshot', '-i');
    }
  };
  return { tool, close: () => cli('close').catch(() => undefined) };
}

async function playwrightMcp(exe: string, dir: string) {
  const cliPath = join(projectRoot(), 'node_modules', '@playwright', 'mcp', 'cli.js');
  const client = await mcpClient(process.execPath, [cliPath, '--headless', '--isolated', '--no-sandbox', '--executable-path', exe,
    '--proxy-server', 'http://127.0.0.1:9', '--proxy-bypass', '127.0.0.1', '--output-dir', join(dir, 'pwmcp')]).catch(() => null);
  if (!client) return null;
  // Its tools take a selector as `target` too, so all three act on the same selectors.
  const tool: Tool = async (action, arg) => {
    switch (action) {
      case 'navigate': return callOk(client, 'browser_navigate', { url: arg });
      case 'click': return callOk(client, 'browser_click', { element: 'Go button', target: '#go' });
      case 'fill': return callOk(client, 'browser_type', { element: 'Name field', target: '#name', text: 'hello world' });
      case 'type': return callOk(client, 'browser_type', { element: 'City field', target: '#city', text: 'Lyon', slowly: true });
      default: return callOk(client, 'browser_snapshot', {});
    }
  };
  return { tool, close: () => client.close() };
}

/** Process start to the first page answered, whole process each: webcap mcp, a node script (launch + goto), playwright-mcp. */
export async function coldStart(site: FixtureServer, dir: string, exe: string, n: number): Promise<LoopRow> {
  const target = `${site.url('127.0.0.1', '/form')}?cold`;
  const config = webcapConfig(dir, site);
  const script = join(dir, 'raw.mjs');
  writeFileSync(script, `import { chromium } from ${JSON.stringify(join(projectRoot(), 'node_modules', 'playwright', 'index.mjs'))};
const b = await chromium.launch({ executablePath: ${JSON.stringify(exe)}, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ${JSON.stringify(DEAD_PROXY)}] });
const p = await (await b.newContext()).newPage();
await p.goto(${JSON.stringify(target)});
await b.close();`);
  const w: number[] = [];
  const raw: number[] = [];
  const pw: number[] = [];
  for (let i = 0; i < n; i++) {
    w.push(await timed(async () => {
      const c = await mcpClient(process.execPath, [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', config]);
      await callOk(c, 'web_open', { url: target });
      await c.close();
    }));
    raw.push(await timed(() => new Promise<void>((resolve, reject) => {
      spawn(process.execPath, [script], { stdio: 'ignore' }).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`raw script exited ${code}`))));
    })));
    pw.push(await timed(async () => {
      const c = await mcpClient(process.execPath, [join(projectRoot(), 'node_modules', '@playwright', 'mcp', 'cli.js'), '--headless', '--isolated', '--no-sandbox', '--executable-path', exe, '--proxy-server', 'http://127.0.0.1:9', '--proxy-bypass', '127.0.0.1', '--output-dir', join(dir, 'pwmcp')]);
      await callOk(c, 'browser_navigate', { url: target });
      await c.close();
    }).catch(() => NaN));
  }
  const ok = pw.filter((x) => !Number.isNaN(x));
  return { action: `cold start to first page (vs node launch+goto: ${median(raw).toFixed(0)} ms)`, webcap: median(w), agentBrowser: median(raw), playwrightMcp: ok.length ? median(ok) : null };
}

export function loopTable(rows: LoopRow[], cold: LoopRow): string {
  const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(1));
  const ratio = (a: number, b: number | null) => (b ? (a / b).toFixed(2) : 'n/a');
  const lines = rows.map((r) => `| ${r.action} | ${f(r.webcap)} | ${f(r.agentBrowser)} | ${f(r.playwrightMcp)} | ${ratio(r.webcap, r.agentBrowser)} | ${r.agentBrowser !== null && r.webcap / r.agentBrowser <= 1.3 ? 'yes' : 'NO'} |`);
  return [
    '| action (median ms) | webcap (MCP) | agent-browser 0.41.2 (CLI) | @playwright/mcp (MCP) | webcap ÷ agent-browser | ≤ 1.3× |',
    '|---|---|---|---|---|---|',
    ...lines,
    '',
    '| cold start, process start → first page (median ms) | webcap mcp | node launch + goto | @playwright/mcp | webcap ÷ node | ≤ 1.3× node and ≤ playwright-mcp |',
    '|---|---|---|---|---|---|',
    `| whole process each | ${f(cold.webcap)} | ${f(cold.agentBrowser)} | ${f(cold.playwrightMcp)} | ${ratio(cold.webcap, cold.agentBrowser)} | ${cold.agentBrowser && cold.webcap / cold.agentBrowser <= 1.3 && (cold.playwrightMcp === null || cold.webcap <= cold.playwrightMcp) ? 'yes' : 'NO'} |`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('agent-loop.js')) {
  const { rows, cold } = await agentLoopBench(Number(process.env.BENCH_N ?? 30));
  process.stdout.write(`${loopTable(rows, cold)}\n`);
}
