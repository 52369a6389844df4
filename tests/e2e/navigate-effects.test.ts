// What a navigation's new page sets off in its load handlers is that
// web.navigate's effect: the call's flush waits for the load handlers and the
// zero-delay timers they arm, so a refused request fails this call (not the
// next one) and the server receives nothing. The title comes from the new page.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
const sunk = () => site.hits.filter((h) => h.includes('/sink'));

beforeAll(async () => {
  site = await serve({
    '/start': (_q, res) => send(res, html('<h1>Start</h1>')),
    // The POST leaves from a zero-delay timer the load handler arms: after the load event itself.
    '/onload-post': (_q, res) => send(res, html('<h1>Loaded</h1>', `<script>addEventListener('load', () => setTimeout(() => fetch('/sink', { method: 'POST', body: 'x' }), 0))</script>`)),
    '/plain': (_q, res) => send(res, html('<h1>Plain page</h1>')),
    '/sink': (_q, res) => send(res, 'ok', 200, 'text/plain'),
  });
});
afterAll(async () => { await site?.close(); });

describe('web.navigate and the requests its new page sends on load', () => {
  let host: Host;
  beforeAll(() => {
    host = testHost(testConfig({
      browser: { respect_robots: true },
      network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
      consent: { non_interactive: 'deny' },
    }));
  });
  afterAll(async () => { await host?.close(); });

  it('fails with consent_denied when the load handler\'s timer POSTs, and the server receives nothing', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/start') });
    for (let i = 0; i < 3; i++) {
      const e = await failure(host.call('web.navigate', { url: site.url('shop.test', '/onload-post') }));
      expect(e.code).toBe('consent_denied');
      expect(e.message).toContain('/sink');
      await host.call('web.navigate', { url: site.url('shop.test', '/start') });
    }
    await sleep(200);
    expect(sunk()).toEqual([]);
  });

  it('web.open of that page fails the same way, and leaves no session behind', async () => {
    const before = sunk().length;
    const e = await failure(host.call('web.open', { url: site.url('shop.test', '/onload-post'), session: 'opened' }));
    expect(e.code).toBe('consent_denied');
    await sleep(200);
    expect(sunk().length).toBe(before);
    expect((await failure(host.call('web.close', { session: 'opened' }))).code).toBe('session_not_found');
  });

  it('answers with the new page\'s title, navigation after navigation', async () => {
    for (const [path, title] of [['/plain', 'Plain page'], ['/start', 'Start'], ['/plain', 'Plain page']]) {
      const r = await host.call('web.navigate', { url: site.url('shop.test', path) }) as { title: string; url: string };
      expect(r.title).toBe(title);
      expect(r.url).toBe(site.url('shop.test', path));
    }
    for (const wait_until of ['domcontentloaded', 'networkidle', 'commit'] as const) {
      const r = await host.call('web.navigate', { url: site.url('shop.test', '/start'), wait_until }) as { title: string };
      const back = await host.call('web.navigate', { url: site.url('shop.test', '/plain'), wait_until }) as { title: string };
      expect([r.title, back.title]).toEqual(['Start', 'Plain page']);
    }
  });
});
