// webcap_sessions{state="queued"} reads the sidecar's real line of web.open
// calls waiting for a slot: with 2 slots taken, a 3rd open waits and the gauge
// reads 1 while it does; when a slot frees, the open goes through and it reads 0.
// Also when a waiting open gives up (session_limit): the line is empty again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
const at = (path = '/') => site.url('shop.test', path);

async function gauge(state: 'open' | 'queued'): Promise<number> {
  const line = (await host.metrics()).split('\n').find((l) => l.startsWith(`webcap_sessions{state="${state}"}`));
  return Number(line?.split(' ')[1]);
}
async function until(state: 'open' | 'queued', value: number): Promise<void> {
  for (let i = 0; i < 300 && (await gauge(state)) !== value; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await gauge(state)).toBe(value);
}

beforeAll(async () => {
  site = await serve({ '/': (_q, res) => send(res, html('<h1>Shop</h1>')) });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 2 }, network: { resolve: { 'shop.test': '127.0.0.1' } } }));
});
afterAll(async () => { await host?.close(); await site?.close(); });

describe('webcap_sessions{state="queued"}', () => {
  it('reads 1 while a 3rd open waits for one of 2 slots, 0 after', async () => {
    expect(await gauge('queued')).toBe(0);
    await host.call('web.open', { url: at(), session: 'a' });
    await host.call('web.open', { url: at(), session: 'b' });
    const third = host.call('web.open', { url: at(), session: 'c', timeout: 60_000 });
    await until('queued', 1);
    expect(await gauge('open')).toBe(2);
    await host.call('web.close', { session: 'a' });
    expect((await third).session).toBe('c');
    await until('queued', 0);
    expect(await gauge('open')).toBe(2);
  });

  it('reads 0 again after a waiting open gives up', async () => {
    const given = host.call('web.open', { url: at(), session: 'd', timeout: 5000 }).catch((e: { code?: string }) => e.code);
    await until('queued', 1);
    expect(await given).toBe('session_limit');
    await until('queued', 0);
    await host.call('web.close', { session: 'b' });
    await host.call('web.close', { session: 'c' });
  });
});
