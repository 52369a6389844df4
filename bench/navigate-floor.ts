// What checking a navigation where it leaves the browser costs Playwright
// itself. webcap checks every document request in the browser (Playwright's
// route, a paused Fetch request on its own CDP session for redirect hops) and
// every connection in its guard proxy. Here raw Playwright's goto runs on the
// same page with those mechanisms added one at a time, each passing everything
// through without a check, beside webcap's web.navigate over MCP, interleaved
// in one run: the ratio of webcap to the last column is what webcap adds on
// top of the mechanisms themselves.
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type Page } from 'playwright';
import { projectRoot } from '../manifests/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { send, serve } from '../tests/helpers/fixture-server.js';
import { PAGE } from './action-layers.js';
import { benchConfig, writeConfig } from './bench-config.js';
import { median, timed } from './stats.js';

/** A proxy that forwards every request unchecked (plain HTTP only: the page is on loopback). */
function passThroughProxy(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '/');
    const out = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connect', (_req, socket: net.Socket) => socket.destroy());
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => {
    ready({ url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => server.close() });
  }));
}

interface Layered { route: boolean; fetchPause: boolean; proxy?: string }

async function rawPage(browser: Browser, layers: Layered): Promise<Page> {
  const context = await browser.newContext(layers.proxy ? { proxy: { server: layers.proxy } } : {});
  if (layers.route) await context.route(() => true, (route) => route.continue());
  const page = await context.newPage();
  if (layers.fetchPause) {
    const cdp = await context.newCDPSession(page);
    cdp.on('Fetch.requestPaused', (e: { requestId: string }) => void cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => undefined));
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] });
  }
  return page;
}

export async function navigateFloor(n: number): Promise<string> {
  const site = await serve({ '/form': (_q, res) => send(res, PAGE) });
  const url = site.url('127.0.0.1', '/form');
  const proxy = await passThroughProxy();
  const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox'] });
  const columns: Array<[string, Layered]> = [
    ['raw goto', { route: false, fetchPause: false }],
    ['+ route', { route: true, fetchPause: false }],
    ['+ route + Fetch pause', { route: true, fetchPause: true }],
    ['+ route + Fetch pause + proxy', { route: true, fetchPause: true, proxy: proxy.url }],
  ];
  const pages = await Promise.all(columns.map(([, layers]) => rawPage(browser, layers)));
  const dir = mkdtempSync(join(tmpdir(), 'webcap-navfloor-'));
  const configFile = writeConfig(join(dir, 'agent_config.toml'), benchConfig(dir, { afterAction: 'none' }));
  const mcp = new Client({ name: 'navigate-floor', version: '1' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', configFile], stderr: 'ignore' }));
  try {
    await mcp.callTool({ name: 'web_open', arguments: { url } });
    const runs = [
      ...pages.map((page) => () => page.goto(url)),
      async () => { const r = await mcp.callTool({ name: 'web_navigate', arguments: { url } }); if (r.isError) throw new Error(JSON.stringify(r.content)); },
    ];
    const samples: number[][] = runs.map(() => []);
    for (let i = 0; i < n + 2; i++) {
      for (let k = 0; k < runs.length; k++) {
        const which = (i + k) % runs.length;
        const t = await timed(runs[which]);
        if (i >= 2) samples[which].push(t);
      }
    }
    const m = samples.map(median);
    const head = [...columns.map(([name]) => name), 'webcap MCP (after_action none)'];
    return [
      `| navigate (median ms) | ${head.join(' | ')} | webcap ÷ raw | webcap ÷ last raw column |`,
      `|---|${head.map(() => '---|').join('')}---|---|`,
      `| web.navigate | ${m.map((x) => x.toFixed(1)).join(' | ')} | ${(m[4] / m[0]).toFixed(2)} | ${(m[4] / m[3]).toFixed(2)} |`,
    ].join('\n');
  } finally {
    await mcp.close();
    await browser.close();
    proxy.close();
    await site.close();
  }
}

if (process.argv[1]?.endsWith('navigate-floor.js')) {
  process.stdout.write(`${await navigateFloor(Number(process.env.BENCH_N ?? 20))}\n`);
}
