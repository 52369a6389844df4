// A web.open over max_concurrent_sessions waits for a slot (first come first
// served) up to its timeout, or fails at once with session_queue = "fail".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { failure } from '../helpers/failure.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
const hosts: Host[] = [];
const at = (path = '/') => site.url('shop.test', path);
const make = (browser: Record<string, unknown>) => {
  const host = testHost(testConfig({ browser: { max_concurrent_sessions: 1, ...browser }, network: { resolve: { 'shop.test': '127.0.0.1' } } }));
  hosts.push(host);
  return host;
};

beforeAll(async () => { site = await serve({ '/': (_q, res) => send(res, html('<h1>Shop</h1>')) }); });
afterAll(async () => { for (const h of hosts) await h.close(); await site?.close(); });

describe('session queue', () => {
  it('waits for a slot, first come first served', async () => {
    const host = make({});
    await host.call('web.open', { url: at(), session: 'a' });
    const order: string[] = [];
    const started = Date.now();
    const b = host.call('web.open', { url: at(), session: 'b', timeout: 30_000 }).then((r) => { order.push('b'); return r; });
    await new Promise((r) => setTimeout(r, 200));
    const c = host.call('web.open', { url: at(), session: 'c', timeout: 30_000 }).then((r) => { order.push('c'); return r; });
    await new Promise((r) => setTimeout(r, 500));
    expect(order).toEqual([]);           // both wait while "a" holds the only slot
    await host.call('web.close', { session: 'a' });
    expect((await b).session).toBe('b');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(order).toEqual(['b']);        // "c" still waits: "b" has the slot now
    await host.call('web.close', { session: 'b' });
    expect((await c).session).toBe('c');
    expect(order).toEqual(['b', 'c']);
    await host.call('web.close', { session: 'c' });
  });

  it('fails with session_limit after its timeout, saying how long it waited', async () => {
    const host = make({});
    await host.call('web.open', { url: at(), session: 'a' });
    const e = await failure(host.call('web.open', { url: at(), session: 'b', timeout: 800 }));
    expect(e.code).toBe('session_limit');
    expect(e.message).toMatch(/in the \d+ ms this web\.open waited/);
    expect(e.details.waited_ms).toBeGreaterThanOrEqual(800);
    await host.call('web.close', { session: 'a' });
    // The slot the timed-out open never got is free for the next one.
    expect((await host.call('web.open', { url: at(), session: 'c' })).session).toBe('c');
    await host.call('web.close', {});
  });

  it('with session_queue = "fail" refuses at once', async () => {
    const host = make({ session_queue: 'fail' });
    await host.call('web.open', { url: at(), session: 'a' });
    const e = await failure(host.call('web.open', { url: at(), session: 'b', timeout: 10_000 }));
    // It did not queue: the refusal says it waited 0 ms of the 10 s it could have.
    expect([e.code, e.details.waited_ms]).toEqual(['session_limit', 0]);
    expect(e.message).toContain('session_queue = "fail"');
    await host.call('web.close', {});
  });
});
