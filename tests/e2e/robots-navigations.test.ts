// robots.txt on every top-level navigation a session makes, not only on the
// URL web.open names: a clicked link, location.href, a GET form, a meta
// refresh. The answer comes from the host's robots cache; a refused
// navigation never reaches the disallowed path (the server counts).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
const robotsFetches = new Map<string, number>();
const privateHits = () => site.hits.filter((h) => h.includes('/private'));

beforeAll(async () => {
  site = await serve({
    '/robots.txt': (req, res) => { robotsFetches.set(req.headers.host ?? '', (robotsFetches.get(req.headers.host ?? '') ?? 0) + 1); send(res, 'User-agent: *\nDisallow: /private\n', 200, 'text/plain'); },
    '/link': (_req, res) => send(res, html('<h1>Link</h1><a id="go" href="/private/a">secret</a> <a id="ok" href="/public">public</a>')),
    '/js': (_req, res) => send(res, html(`<h1>Js</h1><button id="go" type="button" onclick="location.href='/private/b'">go</button>`)),
    '/form': (_req, res) => send(res, html('<h1>Form</h1><form method="get" action="/private/search"><input name="q" value="x"><button id="go">Search</button></form>')),
    '/meta': (_req, res) => send(res, html('<h1>Meta</h1>', '<meta http-equiv="refresh" content="0;url=/private/c">')),
    '/meta-later': (_req, res) => send(res, html('<h1>Later</h1>', '<meta http-equiv="refresh" content="2;url=/private/d">')),
    '/public': (_req, res) => send(res, html('<h1>Public</h1>')),
    // Redirect hops: the first URL is allowed, where it leads is not.
    '/hop': (_req, res) => { res.writeHead(302, { location: '/hop2' }).end(); },
    '/hop2': (_req, res) => { res.writeHead(301, { location: '/private/e' }).end(); },
    '/hop-away': (_req, res) => { res.writeHead(307, { location: site.url('other.test', '/private/f') }).end(); },
    '/hop-public': (_req, res) => { res.writeHead(302, { location: '/public' }).end(); },
    '/hop-link': (_req, res) => send(res, html('<h1>Hop link</h1><a id="go" href="/hop">onwards</a>')),
    '/popup': (_req, res) => send(res, html('<h1>Popup</h1><a id="go" target="_blank" href="/private/g">new tab</a>')),
    '/count-start': (_req, res) => { res.writeHead(302, { location: '/count-end' }).end(); },
    '/count-end': (_req, res) => send(res, html('<h1>Arrived</h1>')),
    '/popup-public': (_req, res) => send(res, html('<h1>Popup public</h1><a id="go" target="_blank" href="/count-start">new tab</a>')),
    '/popup-hop': (_req, res) => send(res, html('<h1>Popup hop</h1><button id="go" type="button" onclick="window.open(\'/hop\')">open</button>')),
  });
});
afterAll(async () => { await site?.close(); });

const config = () => testConfig({
  browser: { respect_robots: true },
  network: { resolve: { 'shop.test': '127.0.0.1', 'other.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
});

describe('robots.txt on navigations the host never saw', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  beforeAll(() => { cfg = config(); host = testHost(cfg); });
  afterAll(async () => { await host?.close(); });

  const clicks: Array<[string, string]> = [['a clicked link', '/link'], ['location.href from a click', '/js'], ['a GET form', '/form']];
  for (const [what, page] of clicks) {
    it(`refuses ${what} to a disallowed path with robots_disallowed`, async () => {
      await host.call('web.open', { url: site.url('shop.test', page) });
      const e = await failure(host.call('web.click', { selector: '#go' }));
      expect(e.code).toBe('robots_disallowed');
      expect(e.message).toContain('Disallow: /private');
      await sleep(200);
      expect(privateHits()).toEqual([]);
      await host.call('web.close', {});
    });
  }

  it('fails the web.open whose page meta-refreshes to a disallowed path at once', async () => {
    const e = await failure(host.call('web.open', { url: site.url('shop.test', '/meta') }));
    expect(e.code).toBe('robots_disallowed');
    expect(privateHits()).toEqual([]);
    // …and leaves no session behind.
    expect((await failure(host.call('web.url', {}))).code).toBe('session_not_found');
  });

  it('refuses a meta refresh the page does later on its own, and records it', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/meta-later') });
    await sleep(3000);
    await host.call('web.url', {});
    expect(privateHits()).toEqual([]);
    const blocked = readEntries(cfg.chain.path).filter((e) => e.kind === 'network_blocked');
    expect(JSON.stringify(blocked)).toContain('robots_disallowed');
    await host.call('web.close', {});
  });

  it('refuses a redirect hop to a disallowed path, on web.open and on a click, on this host and another', async () => {
    for (const start of ['/hop', '/hop-away']) {
      const e = await failure(host.call('web.open', { url: site.url('shop.test', start) }));
      expect(e.code).toBe('robots_disallowed');
      expect(e.message).toContain('/private/');
    }
    await host.call('web.open', { url: site.url('shop.test', '/hop-link') });
    const e = await failure(host.call('web.click', { selector: '#go' }));
    expect(e.code).toBe('robots_disallowed');
    await sleep(200);
    expect(privateHits()).toEqual([]);
    // The allowed hops were taken (the refusal is at the hop, not at the start).
    expect(site.hits.filter((h) => /\/hop2?$/.test(h)).length).toBeGreaterThanOrEqual(2);
    await host.call('web.close', {});
  });

  const countOf = (path: string) => site.hits.filter((h) => h.endsWith(path)).length;

  it('follows a redirect to an allowed path as before, each hop requested once', async () => {
    const before = [countOf('/count-start'), countOf('/count-end')];
    const r = await host.call('web.open', { url: site.url('shop.test', '/count-start') });
    expect(r.url).toBe(site.url('shop.test', '/count-end'));
    expect([countOf('/count-start') - before[0], countOf('/count-end') - before[1]]).toEqual([1, 1]);
    await host.call('web.close', {});
  });

  it('lands a popup that redirects to an allowed path on that path (its hops checked by walking them)', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/popup-public') });
    const before = countOf('/count-start');
    await host.call('web.click', { selector: '#go' });
    await expect.poll(async () => (await host.call('web.url', {})).url, { timeout: 30_000 }).toBe(site.url('shop.test', '/count-end'));
    expect((await host.call('web.extract', { selector: 'h1' })).items).toEqual([{ text: 'Arrived' }]);
    // The first URL once; the last one twice (once walked, once by the browser: see redirect-walk.ts).
    expect(countOf('/count-start') - before).toBe(1);
    await host.call('web.close', {});
  });

  it('refuses a popup whose first navigation, or a hop of it, is disallowed', async () => {
    for (const page of ['/popup', '/popup-hop']) {
      await host.call('web.open', { url: site.url('shop.test', page) });
      const e = await failure(host.call('web.click', { selector: '#go' }));
      expect(e.code).toBe('robots_disallowed');
      await host.call('web.close', {});
    }
    await sleep(200);
    expect(privateHits()).toEqual([]);
  });

  it('lets an allowed click through, with one robots.txt fetch for the whole session (the host\'s cache)', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/link') });
    const r = await host.call('web.click', { selector: '#ok', wait_until: 'load' });
    expect(r.url).toBe(site.url('shop.test', '/public'));
    expect(robotsFetches.get(`shop.test:${site.port}`)).toBe(1);
    await host.call('web.close', {});
  });
});
