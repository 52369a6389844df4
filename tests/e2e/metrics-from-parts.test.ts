// The metrics the parts feed, read from /metrics text as a scraper sees it:
// consent questions and the time to answer them (a person who takes 300 ms),
// sidecar restarts (kill -9 of the sidecar), and the shared store's latency
// and errors (a real redis-server, then the same server gone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { descendants } from '../helpers/processes.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

let site: FixtureServer;
let redis: TestRedis | undefined;
const hosts: Host[] = [];
const page = () => site.url('shop.test', '/');

beforeAll(async () => { site = await serve({ '/': (_q, res) => send(res, html('<h1>Shop</h1>')) }); });
afterAll(async () => {
  for (const h of hosts) await h.close().catch(() => undefined);
  await redis?.stop();
  await site?.close();
});

/** One sample's value from the exposition text (0 when the series is absent). */
async function sample(host: Host, series: string): Promise<number> {
  const line = (await host.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics fed by the parts', () => {
  it('counts consent questions by reason and answer, and times the ones a person answered', async () => {
    const host = testHost(testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } }, consent: { require: ['web.open'], approval_ttl_s: 600 } }), {
      ask: async () => { await new Promise((r) => setTimeout(r, 300)); return { approved: true, channel: 'callback' }; },
    });
    hosts.push(host);
    await host.call('web.open', { url: page() });
    await host.call('web.open', { url: page() }); // the same origin: remembered, nobody asked
    expect(await sample(host, 'webcap_consent_questions_total{reason="config_require",answer="approved"}')).toBe(1);
    expect(await sample(host, 'webcap_consent_questions_total{reason="config_require",answer="remembered"}')).toBe(1);
    expect(await sample(host, 'webcap_consent_answer_seconds_count')).toBe(1);
    expect(await sample(host, 'webcap_consent_answer_seconds_sum')).toBeGreaterThanOrEqual(0.29);
    expect(await sample(host, 'webcap_consent_answer_seconds_bucket{le="0.1"}')).toBe(0);
  });

  it('counts a sidecar started again after the first one was killed', async () => {
    const host = testHost(testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } } }));
    hosts.push(host);
    const sidecars = () => descendants().filter((p) => p.args.includes('sidecar/main.js')).map((p) => p.pid);
    const others = new Set(sidecars()); // earlier tests' hosts may still run theirs
    await host.call('web.open', { url: page() });
    const before = await sample(host, 'webcap_sidecar_restarts_total');
    const [sidecar] = sidecars().filter((pid) => !others.has(pid));
    process.kill(sidecar, 'SIGKILL');
    await failure(host.call('web.extract', { selector: 'h1' })); // the crash, reported to the call in flight or the next
    await host.call('web.open', { url: page() });
    expect(sidecars().filter((pid) => !others.has(pid))).not.toContain(sidecar);
    expect(await sample(host, 'webcap_sidecar_restarts_total')).toBe(before + 1);
  });

  it('times shared-store commands, and counts the ones that fail once the store is gone', async () => {
    redis = await startRedis();
    const config = testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } } });
    const host = testHost({ ...config, store: { url: redis.url, prefix: 'metrics:' } } as typeof config);
    hosts.push(host);
    await host.call('web.open', { url: page() });
    expect(await sample(host, 'webcap_store_latency_seconds_count')).toBeGreaterThan(0);
    expect(await sample(host, 'webcap_store_errors_total')).toBe(0);
    await redis.stop();
    const refused = await failure(host.call('web.open', { url: page() }));
    expect(refused.details.reason).toBe('store_unavailable');
    expect(await sample(host, 'webcap_store_errors_total')).toBeGreaterThan(0);
  });
});
