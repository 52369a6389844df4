// A person reading a consent prompt is not a hung browser: the time spent
// waiting for the answer does not count against the call's timeout.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;

beforeAll(async () => {
  site = await serve({ '/': (_req, res) => send(res, html('<h1>Login</h1><form method="post"><input id="pw" type="password"></form>')) });
  // 5 s per call (room for the fill itself on a busy machine); the host's own watchdog would fire
  // 2 s after that. The answer takes 8 s: longer than both.
  host = testHost(testConfig({ browser: { default_timeout_ms: 5000 }, network: { resolve: { 'login.test': '127.0.0.1' } } }), {
    ask: async () => { await new Promise((r) => setTimeout(r, 8000)); return { approved: true }; },
  });
  await host.call('web.open', { url: site.url('login.test', '/'), timeout: 30_000 });
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

it('waits for a slow answer past the call timeout, then completes the fill', async () => {
  const started = Date.now();
  const r = await host.call('web.fill', { selector: '#pw', text: 'hunter2-SECRET' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
  expect(r).toMatchObject({ ok: true, value: '[REDACTED]' });
});
