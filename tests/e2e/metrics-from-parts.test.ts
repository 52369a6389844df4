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

/**
 * One sample's value from the exposition text (0 when the series is absent). The registry is the
 * process's, and other files may run in this process before this one: each test counts what it adds.
 */
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
    const series = [
      'webcap_consent_questions_total{reason="config_require",answer="approved"}',
      'webcap_consent_questions_total{reason="config_require",answer="remembered"}',
      'webcap_consent_answer_seconds_count', 'webcap_consent_answer_seconds_sum', 'webcap_consent_answer_seconds_bucket{le="0.1"}',
    ];
    const before = await Promise.all(series.map((s) => sample(host, s)));
    await host.call('web.open', { url: page() });
    await host.call('web.open', { url: page() }); // the same origin: remembered, nobody asked
    const added = (await Promise.all(series.map((s) => sample(host, s)))).map((v, i) => v - before[i]);
    expect(added[0]).toBe(1);
    expect(added[1]).toBe(1);
    expect(added[2]).toBe(1);
    expect(added[3]).toBeGreaterThanOrEqual(0.29);
    expect(added[4]).toBe(0);
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
    const [timed, errors] = [await sample(host, 'webcap_store_latency_seconds_count'), await sample(host, 'webcap_store_errors_total')];
    await host.call('web.open', { url: page() });
    expect(await sample(host, 'webcap_store_latency_seconds_count')).toBeGreaterThan(timed);
    expect(await sample(host, 'webcap_store_errors_total')).toBe(errors);
    await redis.stop();
    const refused = await failure(host.call('web.open', { url: page() }));
    expect(refused.details.reason).toBe('store_unavailable');
    expect(await sample(host, 'webcap_store_errors_total')).toBeGreaterThan(errors);
  });
});
