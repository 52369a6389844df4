// The sidecar's network guard with real Chromium. Only loopback traffic: the
// fixture server listens on 127.0.0.1, every test hostname maps to loopback via
// [network] resolve. A second server answers on 127.0.0.2 (loopback, outside
// allow_private) so a test can count what the guard let reach it, with an
// unguarded browser as the positive control that it is reachable at all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockedRequest } from '../../manifests/wire.js';
import { installNetworkGuard, startGuardProxy, type GuardOptions, type NetworkGuard } from '../../sidecar/guard/network-guard.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

let browser: Browser;
let server: http.Server;
let port = 0;
const hits: string[] = [];            // "host /path" of every request the fixture answered
let privateServer: http.Server;
const privateHits: string[] = [];     // what reached 127.0.0.2

const page = (body: string) => `<!doctype html><title>start</title><body>${body}</body>`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0];
    hits.push(`${host} ${req.url}`);
    const redirect = (to: string) => { res.writeHead(302, { location: to }); res.end(); };
    switch (req.url) {
      case '/subresources': res.setHeader('content-type', 'text/html'); res.end(page(`
        <img src="http://other.test:${port}/pixel.png">
        <script>
          fetch('http://other.test:${port}/api').then(() => 'fetched', () => 'fetch-failed').then((t) => { document.title = t; });
          const ws = new WebSocket('ws://other.test:${port}/socket');
          ws.onclose = (e) => { document.body.dataset.ws = String(e.code); };
        </script>`)); return;
      case '/to-other': return redirect(`http://other.test:${port}/landing`);
      case '/to-127-0-0-2': return redirect(`http://127.0.0.2:${port}/secret`);
      case '/to-private-name': return redirect(`http://private.test:${port}/secret`);
      case '/to-allowed': return redirect(`http://allowed.test:${port}/landing`);
      default: res.setHeader('content-type', 'text/html'); res.end(page(`landing ${req.url}`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  privateServer = http.createServer((req, res) => { privateHits.push(req.url ?? ''); res.end('private'); });
  await new Promise<void>((resolve) => privateServer.listen(port, '127.0.0.2', resolve));
  browser = await chromium.launch({
    executablePath: (await findChromium())!.path,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--host-resolver-rules=MAP allowed.test 127.0.0.1, MAP other.test 127.0.0.1, MAP private.test 127.0.0.2'],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => privateServer?.close(resolve));
});

async function guarded(withProxy: boolean): Promise<{ context: BrowserContext; guard: NetworkGuard; reported: BlockedRequest[] }> {
  const reported: BlockedRequest[] = [];
  const opts: GuardOptions = {
    allowlist: ['allowed.test', 'private.test', '127.0.0.*'], denylist: [],
    resolve: { 'allowed.test': '127.0.0.1', 'other.test': '127.0.0.1', 'private.test': '127.0.0.2' },
    allowPrivate: ['127.0.0.1'], session: 's1', onBlocked: (b) => reported.push(b),
  };
  const proxy = withProxy ? await startGuardProxy(opts) : undefined;
  const context = await browser.newContext({ serviceWorkers: 'block', ...(proxy ? { proxy: proxy.proxy } : {}) });
  const guard = await installNetworkGuard(context, { ...opts, proxy });
  return { context, guard, reported };
}

const hitsFor = (host: string) => hits.filter((h) => h.startsWith(`${host} `));

describe('network guard', () => {
  it('aborts and reports an image, a fetch and a websocket to a host not allowlisted', async () => {
    const { context, reported } = await guarded(true);
    const p = await context.newPage();
    await p.goto(`http://allowed.test:${port}/subresources`);
    await p.waitForFunction(() => document.title === 'fetch-failed' && document.body.dataset.ws);
    expect(await p.evaluate(() => document.body.dataset.ws)).toBe('1008');
    const kinds = reported.filter((b) => b.host === 'other.test').map((b) => `${b.kind} ${b.code}`).sort();
    expect(kinds).toEqual(['fetch not_allowlisted', 'image not_allowlisted', 'websocket not_allowlisted']);
    expect(reported[0]).toMatchObject({ session: 's1', reason: 'host "other.test" is not allowed (no rule in domains_allowlist matches)' });
    expect(hitsFor('other.test')).toEqual([]);
    await context.close();
  });

  it('stops a redirect from an allowed host to a host not allowlisted', async () => {
    const { context, guard } = await guarded(true);
    const p = await context.newPage();
    const response = await p.goto(`http://allowed.test:${port}/to-other`);
    expect(response?.headers()['x-webcap-blocked']).toBe('not_allowlisted');
    await expect.poll(() => guard.lastBlocked()?.kind, { timeout: 30_000 }).toBe('document');
    expect(guard.lastBlocked()).toMatchObject({ host: 'other.test', code: 'not_allowlisted', url: `http://other.test:${port}/landing` });
    expect(guard.lastBlocked()?.reason).toMatch(/^redirect from http:\/\/allowed\.test:\d+\/to-other: /);
    expect(hitsFor('other.test')).toEqual([]);
    await context.close();
  });

  it('stops a redirect to a loopback address outside allow_private, by IP or by name', async () => {
    const { context, guard } = await guarded(true);
    const p = await context.newPage();
    await p.goto(`http://allowed.test:${port}/to-127-0-0-2`);
    expect(guard.lastBlocked()).toMatchObject({ host: '127.0.0.2', code: 'ssrf_blocked', reason: expect.stringContaining('127.0.0.2 is a loopback address') });
    await p.goto(`http://allowed.test:${port}/to-private-name`);
    expect(guard.lastBlocked()).toMatchObject({ host: 'private.test', code: 'ssrf_blocked', reason: expect.stringContaining('private.test resolves to 127.0.0.2 (loopback)') });
    await context.close();
    expect(privateHits).toEqual([]);
    // Positive control: without the guard the same redirects do reach 127.0.0.2.
    const bare = await browser.newContext();
    const b = await bare.newPage();
    await b.goto(`http://allowed.test:${port}/to-127-0-0-2`);
    await b.goto(`http://allowed.test:${port}/to-private-name`);
    await bare.close();
    expect(privateHits.filter((u) => u === '/secret')).toEqual(['/secret', '/secret']);
  });

  it('lets allowed redirects and pages through', async () => {
    const { context, reported } = await guarded(true);
    const p = await context.newPage();
    const response = await p.goto(`http://allowed.test:${port}/to-allowed`);
    expect(response?.status()).toBe(200);
    expect(p.url()).toBe(`http://allowed.test:${port}/landing`);
    expect(await p.textContent('body')).toBe('landing /landing');
    expect(reported).toEqual([]);
    await context.close();
  });

  it('blocks a popup to a host not allowlisted', async () => {
    const { context, guard } = await guarded(true);
    const p = await context.newPage();
    await p.goto(`http://allowed.test:${port}/landing`);
    const popup = context.waitForEvent('page');
    await p.evaluate((u) => { window.open(u); }, `http://other.test:${port}/popup`);
    await (await popup).waitForLoadState().catch(() => undefined);
    await expect.poll(() => guard.lastBlocked()?.url, { timeout: 30_000 }).toBe(`http://other.test:${port}/popup`);
    expect(hitsFor('other.test')).toEqual([]);
    await context.close();
  });

  it('without the proxy, still blocks direct requests and reports (but cannot stop) redirect hops', async () => {
    const { context, guard } = await guarded(false);
    const p = await context.newPage();
    await expect(p.goto(`http://other.test:${port}/direct`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(guard.lastBlocked()).toMatchObject({ kind: 'document', code: 'not_allowlisted' });
    guard.clearBlocked();
    // A fresh page: the blocked one is still settling on Chromium's error page.
    const q = await context.newPage();
    await q.goto(`http://allowed.test:${port}/to-allowed`);
    expect(guard.lastBlocked()).toBeUndefined();
    // The known gap this mode documents: the hop happens, but the sidecar learns of it.
    await q.goto(`http://allowed.test:${port}/to-other`);
    await expect.poll(() => guard.lastBlocked()?.code, { timeout: 30_000 }).toBe('not_allowlisted');
    expect(guard.lastBlocked()?.reason).toMatch(/not stopped: no guard proxy/);
    await context.close();
  });
});
