// The guard travels with the browser: a remote browser (a Playwright server
// from chromium.launchServer(), and a Chromium reached over CDP) gets the same
// guard proxy as a local one, so redirect hops and subresources that lead to
// a private address are stopped. The "private" server listens on 127.0.0.2,
// which is loopback (the test stays on this machine) but not in allow_private,
// so for webcap it is a private address; it counts every request it gets.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { chromium, type BrowserServer } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchArgs } from '../../sidecar/browser/find-chromium.js';
import { installNetworkGuard, startGuardProxy, type GuardProxy } from '../../sidecar/guard/network-guard.js';
import { proveGuardReachable } from '../../sidecar/guard/remote-guard.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let secret: FixtureServer;      // the private server: 127.0.0.2
let server: BrowserServer;
let cdp: ChildProcess | undefined;
let cdpEndpoint = '';

beforeAll(async () => {
  secret = await serve({ '*': (_req, res) => send(res, 'private data', 200, 'text/plain') }, '127.0.0.2');
  const toPrivate = (path: string) => `http://private.test:${secret.port}${path}`;
  site = await serve({
    '/to-private': (_req, res) => { res.writeHead(302, { location: toPrivate('/secret') }); res.end(); },
    '/to-private-ip': (_req, res) => { res.writeHead(302, { location: `http://127.0.0.2:${secret.port}/secret` }); res.end(); },
    '/img-hop': (_req, res) => { res.writeHead(302, { location: toPrivate('/pixel.png') }); res.end(); },
    '/fetch-hop': (_req, res) => { res.writeHead(307, { location: toPrivate('/api') }); res.end(); },
    '/subresources': (_req, res) => send(res, html(`<h1>Page</h1>
      <img src="/img-hop"><img src="http://127.0.0.2:${secret.port}/direct.png"><iframe src="/to-private"></iframe>
      <script>fetch('/fetch-hop').then(() => { document.title = 'fetched'; }, () => { document.title = 'refused'; });</script>`)),
    '/robots.txt': (_req, res) => send(res, 'User-agent: *\nDisallow: /nope\n', 200, 'text/plain'),
    '/to-nope': (_req, res) => { res.writeHead(302, { location: '/nope' }); res.end(); },
    '/': (_req, res) => send(res, html('<h1>Home</h1>')),
  });
  const found = await findChromium();
  if (!found) throw new Error('no Chromium for the remote browser');
  server = await chromium.launchServer({ executablePath: found.path, host: '127.0.0.1', args: launchArgs({}) });
  // A CDP endpoint: a plain Chromium with a DevTools port, as `chromium --remote-debugging-port` gives it.
  cdp = spawn(found.path, ['--headless=new', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${tempDir('webcap-cdp-')}`, ...launchArgs({}), 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  cdp.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const deadline = Date.now() + 20_000;
  while (!/DevTools listening on (ws:\S+)/.test(err) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  cdpEndpoint = /DevTools listening on (ws:\S+)/.exec(err)?.[1] ?? '';
});
afterAll(async () => {
  await server?.close();
  if (cdp && cdp.exitCode === null) { cdp.kill('SIGTERM'); await once(cdp, 'exit'); }
  await site?.close();
  await secret?.close();
});

const configFor = (remote: { kind: 'playwright' | 'cdp'; endpoint: () => string }) => testConfig({
  // private.test and 127.0.0.2 are allowlisted, so it is the SSRF guard that has to stop them.
  browser: { remote_endpoint: remote.endpoint(), remote_kind: remote.kind, domains_allowlist: ['*.test', '127.0.0.2'] },
  network: { resolve: { 'shop.test': '127.0.0.1', 'private.test': '127.0.0.2' }, allow_private: ['127.0.0.1'] },
});

const kinds = [
  { kind: 'playwright' as const, endpoint: () => server.wsEndpoint() },
  { kind: 'cdp' as const, endpoint: () => cdpEndpoint },
];

describe.each(kinds)('a remote browser over $kind', (remote) => {
  it('stops redirects and subresources that lead to a private address: 0 requests reach it', async () => {
    expect(remote.endpoint()).toMatch(/^ws:\/\//);
    const before = secret.hits.length;
    const cfg = configFor(remote);
    const host = testHost(cfg);
    try {
      const top = await failure(host.call('web.open', { url: site.url('shop.test', '/to-private') }));
      expect(top.code).toBe('ssrf_blocked');
      const byIp = await failure(host.call('web.open', { url: site.url('shop.test', '/to-private-ip') }));
      expect(byIp.code).toBe('ssrf_blocked');
      const opened = await host.call('web.open', { url: site.url('shop.test', '/subresources') });
      expect(opened.status).toBe(200);
      // The page's fetch() of a 307 to the private server fails: it was stopped at the hop.
      await host.call('web.wait', { network: 'idle' });
      const page = await host.call('web.url', {});
      expect(page.url).toBe(site.url('shop.test', '/subresources'));
      // The page itself did load through the remote browser.
      expect(site.hits.some((h) => h.endsWith('/fetch-hop'))).toBe(true);
      expect(secret.hits.slice(before)).toEqual([]);
      // The guard's own probe is not reported as the page's traffic.
      expect(readFileSync(cfg.chain.path, 'utf8')).not.toContain('webcap-guard-probe');
      // …and the private server does count what reaches it (so the 0 above means something).
      await fetch(`http://127.0.0.2:${secret.port}/counted`);
      expect(secret.hits.slice(before)).toEqual([`127.0.0.2:${secret.port}/counted`]);
    } finally {
      await host.close();
    }
  });

  it('checks robots.txt on a redirect hop of a top-level navigation, as a local browser does', async () => {
    const cfg = configFor(remote);
    cfg.capabilities.browser.respect_robots = true;
    const host = testHost(cfg);
    try {
      const e = await failure(host.call('web.open', { url: site.url('shop.test', '/to-nope') }));
      expect(e.code).toBe('robots_disallowed');
      expect(site.hits.filter((h) => h.endsWith('/nope'))).toEqual([]);
      expect(site.hits.some((h) => h.endsWith('/to-nope'))).toBe(true);
    } finally {
      await host.close();
    }
  });
});

describe('a remote endpoint that does not answer', () => {
  it('fails with browser_crashed naming the endpoint, not internal', async () => {
    const closed = await serve({});
    const port = closed.port;
    await closed.close();       // nothing listens there now
    for (const kind of ['playwright', 'cdp'] as const) {
      const host = testHost(configFor({ kind, endpoint: () => `ws://127.0.0.1:${port}/secret-token` }));
      try {
        const e = await failure(host.call('web.open', { url: site.url('shop.test', '/') }));
        expect([kind, e.code, e.details.reason]).toEqual([kind, 'browser_crashed', 'remote_unreachable']);
        expect(e.message).toContain(`127.0.0.1:${port}`);
        expect(e.message).not.toContain('secret-token');
      } finally {
        await host.close();
      }
    }
  });
});

describe('a browser that cannot reach the guard', () => {
  it('is refused with an error that names the reason', async () => {
    const found = await findChromium();
    const browser = await chromium.launch({ executablePath: found!.path, args: launchArgs({}) });
    let proxy: GuardProxy | undefined;
    try {
      proxy = await startGuardProxy({ allowlist: ['*.test'], denylist: [], resolve: {}, allowPrivate: [], session: 's', onBlocked: () => undefined });
      await proxy.close();      // now nothing listens where the browser is told to send its traffic
      const context = await browser.newContext({ proxy: proxy.proxy });
      await installNetworkGuard(context, { allowlist: ['*.test'], denylist: [], resolve: {}, allowPrivate: [], session: 's', onBlocked: () => undefined, proxy });
      const e = await failure(proveGuardReachable(context, proxy, 'ws://far.example:3000/'));
      expect(e.code).toBe('browser_crashed');
      expect(e.details.reason).toBe('guard_unreachable');
      expect(e.message).toContain('cannot reach webcap\'s network guard');
    } finally {
      await browser.close();
    }
  });
});
