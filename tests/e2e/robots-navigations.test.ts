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
let robotsFetches = 0;
const privateHits = () => site.hits.filter((h) => h.includes('/private'));

beforeAll(async () => {
  site = await serve({
    '/robots.txt': (_req, res) => { robotsFetches += 1; send(res, 'User-agent: *\nDisallow: /private\n', 200, 'text/plain'); },
    '/link': (_req, res) => send(res, html('<h1>Link</h1><a id="go" href="/private/a">secret</a> <a id="ok" href="/public">public</a>')),
    '/js': (_req, res) => send(res, html(`<h1>Js</h1><button id="go" type="button" onclick="location.href='/private/b'">go</button>`)),
    '/form': (_req, res) => send(res, html('<h1>Form</h1><form method="get" action="/private/search"><input name="q" value="x"><button id="go">Search</button></form>')),
    '/meta': (_req, res) => send(res, html('<h1>Meta</h1>', '<meta http-equiv="refresh" content="0;url=/private/c">')),
    '/meta-later': (_req, res) => send(res, html('<h1>Later</h1>', '<meta http-equiv="refresh" content="2;url=/private/d">')),
    '/public': (_req, res) => send(res, html('<h1>Public</h1>')),
  });
});
afterAll(async () => { await site?.close(); });

const config = () => testConfig({
  browser: { respect_robots: true },
  network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
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

  it('lets an allowed click through, with one robots.txt fetch for the whole session (the host\'s cache)', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/link') });
    const r = await host.call('web.click', { selector: '#ok', wait_until: 'load' });
    expect(r.url).toBe(site.url('shop.test', '/public'));
    expect(robotsFetches).toBe(1);
    await host.call('web.close', {});
  });
});
