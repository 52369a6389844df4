// Where a snapshot's time goes on the small form page: the same web.snapshot
// one layer at a time, interleaved in one run — raw Playwright (the tree
// alone), the sidecar alone over JSON-RPC (no host), the host in-process
// (policies, chain, redaction), the MCP server in-process (the SDK's in-memory
// transport; the client lists the tools first, so it validates structuredContent
// against the output schema as an agent's client does), and the whole thing
// over MCP stdio, beside @playwright/mcp's browser_snapshot. Differences
// between adjacent columns are each layer's cost. node dist/bench/snapshot-layers.js [corpus page name] (BENCH_N samples;
// the small form page by default).
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { chromium } from 'playwright';
import { createHost } from '../host/host.js';
import { createMcpServer } from '../host/mcp/server.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { send, serve } from '../tests/helpers/fixture-server.js';
import { bareSidecar } from './bare-sidecar.js';
import { allRealPages } from './snapshot-corpus.js';
import { SMALL_PAGE } from './snapshot-real.js';
import { playwrightMcpTool, webcapTool } from './snapshot-peers.js';
import { median, timed } from './stats.js';

export async function snapshotLayers(n: number, pageName?: string): Promise<string> {
  const html = pageName ? allRealPages().find((p) => p.name === pageName)?.html : SMALL_PAGE;
  if (!html) throw new Error(`no corpus page ${pageName}`);
  const site = await serve({ '/small': (_q, res) => send(res, html) });
  const dir = mkdtempSync(join(tmpdir(), 'webcap-snaplayers-'));
  const url = site.url('127.0.0.1', '/small');
  const config = {
    capabilities: { browser: { domains_allowlist: ['127.0.0.1'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
    network: { allow_private: ['127.0.0.1'] }, chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: join(dir, 'ws') },
    logging: { level: 'warn', file: join(dir, 'webcap.log') },
  };
  const exe = (await findChromium())!.path;
  const browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox'] });
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  const bare = bareSidecar(config);
  const { session } = await bare.invoke('web.open', { url }, 30_000, 'bench') as { session: string };
  const host = createHost({ config });
  await host.call('web.open', { url });
  const inProcess = createMcpServer({ config: { ...config, chain: { path: join(dir, 'chain-mcp.jsonl') } } });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await inProcess.server.connect(serverSide);
  const memory = new Client({ name: 'webcap-snapshot-layers', version: '1.0.0' });
  await memory.connect(clientSide);
  await memory.listTools(); // as an agent's client does: it then validates each structuredContent
  await memory.callTool({ name: 'web_open', arguments: { url } });
  const mcp = await webcapTool(dir);
  await mcp.open(url);
  const peer = await playwrightMcpTool(dir, exe);
  await peer.open(url);
  const names = ['raw Playwright tree', 'sidecar alone', 'host in-process', 'webcap MCP in-memory', 'webcap MCP stdio', '@playwright/mcp'];
  const runs = [
    () => page.ariaSnapshot({ mode: 'ai' }),
    () => bare.invoke('web.snapshot', { session }, 30_000, 'bench'),
    () => host.call('web.snapshot', {}),
    () => memory.callTool({ name: 'web_snapshot', arguments: {} }),
    () => mcp.snapshot(),
    () => peer.snapshot(),
  ];
  const s: number[][] = runs.map(() => []);
  try {
    for (let i = 0; i < n + 3; i++) {
      for (let k = 0; k < runs.length; k++) {
        const which = (i + k) % runs.length;
        const t = await timed(runs[which]);
        if (i >= 3) s[which].push(t);
      }
    }
  } finally {
    await mcp.close();
    await memory.close();
    await inProcess.close();
    await peer.close();
    await host.close();
    await bare.close();
    await browser.close();
    await site.close();
  }
  return [`load ${loadavg().map((x) => x.toFixed(1)).join(' / ')}`, `| ${names.join(' | ')} |`, `|${names.map(() => '---').join('|')}|`,
    `| ${s.map((x) => median(x).toFixed(1)).join(' | ')} |`].join('\n');
}

if (process.argv[1]?.endsWith('snapshot-layers.js')) {
  process.stdout.write(`${await snapshotLayers(Number(process.env.BENCH_N ?? 20), process.argv[2])}\n`);
}
