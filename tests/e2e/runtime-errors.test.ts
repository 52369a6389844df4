// Each error code the runtime introduces, provoked as a user would meet it.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { shopRoutes } from '../fixtures/shop-site.js';
import { failure } from '../helpers/failure.js';

let site: FixtureServer;
let host: Host;
const at = (path: string) => site.url('shop.test', path);

beforeAll(async () => {
  site = await serve(shopRoutes);
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 2 }, network: { resolve: { 'shop.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});


async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('runtime error codes', () => {
  it('http_error with the status for a 404 and a 500', async () => {
    const e404 = await failure(host.call('web.open', { url: at('/404') }));
    expect([e404.code, e404.details.status]).toEqual(['http_error', 404]);
    await host.call('web.open', { url: at('/') });
    const e500 = await failure(host.call('web.navigate', { url: at('/500') }));
    expect([e500.code, e500.details.status]).toEqual(['http_error', 500]);
    await host.call('web.close', {});
  });

  it('timeout for a page that never finishes loading', async () => {
    const e = await failure(host.call('web.open', { url: at('/hang'), timeout: 1500 }));
    expect(e.code).toBe('timeout');
  });

  it('selector_not_found naming the selector, for wait and click', async () => {
    await host.call('web.open', { url: at('/') });
    const w = await failure(host.call('web.wait', { selector: '#nope', timeout: 500 }));
    expect(w.code).toBe('selector_not_found');
    expect(w.message).toContain('#nope');
    const c = await failure(host.call('web.click', { selector: '.missing-button', timeout: 500 }));
    expect([c.code, c.details.selector]).toEqual(['selector_not_found', '.missing-button']);
    const t = await failure(host.call('web.wait', { text: 'never said', timeout: 300 }));
    expect(t.code).toBe('selector_not_found');
  });

  it('session_not_found and session_limit', async () => {
    const nf = await failure(host.call('web.click', { selector: '#buy', session: 'ghost' }));
    expect(nf.code).toBe('session_not_found');
    await host.call('web.open', { url: at('/'), session: 'one' });
    const over = await failure(host.call('web.open', { url: at('/'), session: 'two', timeout: 1000 })); // waits for a slot up to its timeout
    expect(over.code).toBe('session_limit');
    expect(over.message).toContain('max_concurrent_sessions = 2');
    await host.call('web.close', { session: 'one' });
    await host.call('web.close', {});
  });

  it('navigation_failed when nothing listens', async () => {
    const port = await freePort();
    const e = await failure(host.call('web.open', { url: `http://shop.test:${port}/` }));
    expect(e.code).toBe('navigation_failed');
    // Through the guard's proxy a refused connection surfaces as a failed proxy answer.
    expect(String(e.details.net_error)).toMatch(/^ERR_(CONNECTION_REFUSED|HTTP_RESPONSE_CODE_FAILURE|EMPTY_RESPONSE|TUNNEL_CONNECTION_FAILED)$/);
    expect(e.message).toContain(`shop.test:${port}`);
  });

  it('invalid_params naming the field and what was expected', async () => {
    // @ts-expect-error no url on purpose: the host refuses it at run time as well
    const missing = await failure(host.call('web.open', {}));
    expect([missing.code, missing.details.field]).toEqual(['invalid_params', 'url']);
    // @ts-expect-error a string limit on purpose: the host refuses it at run time as well
    const wrong = await failure(host.call('web.extract', { selector: '.x', limit: 'ten' }));
    expect(wrong.message).toContain('"limit" must be integer');
    const notUrl = await failure(host.call('web.open', { url: 'not a url' }));
    expect(notUrl.details.field).toBe('url');
    await host.call('web.open', { url: at('/') });
    const outside = await failure(host.call('web.screenshot', { path: '/etc/evil.png' }));
    expect([outside.code, outside.details.field]).toEqual(['invalid_params', 'path']);
    const escape = await failure(host.call('web.screenshot', { path: '../../x.png' }));
    expect(escape.code).toBe('invalid_params');
    const waitNone = await failure(host.call('web.wait', {}));
    expect(waitNone.code).toBe('invalid_params');
    await host.call('web.close', {});
  });

  it('unknown_capability names the id', async () => {
    const e = await failure(host.call('web.teleport', {}));
    expect(e.code).toBe('unknown_capability');
    expect(e.message).toContain('web.teleport');
  });

  it('capability_disabled when the browser is turned off in config', async () => {
    const off = testHost(testConfig({ browser: { enabled: false } }));
    try {
      const e = await failure(off.call('web.open', { url: at('/') }));
      expect(e.code).toBe('capability_disabled');
    } finally {
      await off.close();
    }
  });
});
