// The shared store against a real redis-server: what one host spends, learns
// or is told, the others see; an outage refuses budgets (never allows), makes
// the cache a miss, is recorded in the chain, and ends without a restart.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PolitenessGate } from '../../host/budget/politeness.js';
import { siteRates } from '../../host/budget/site-rates.js';
import { loadConfig } from '../../host/config/load.js';
import { ConsentGate } from '../../host/consent/gate.js';
import { budgetPolicy } from '../../host/policies/budget.js';
import type { CallContext } from '../../host/policies/types.js';
import { RobotsCache } from '../../host/robots/robots.js';
import { ProviderState } from '../../host/search/provider-state.js';
import { redisStore } from '../../host/store/redis.js';
import type { GovernanceStore } from '../../host/store/types.js';
import type { Manifest } from '../../manifests/load.js';
import { failure } from '../helpers/failure.js';
import { testConfig, testHost } from '../helpers/host.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
const opened: GovernanceStore[] = [];
let n = 0;
/** Two stores on one prefix are two hosts; each test gets its own prefix. */
function pair(): [GovernanceStore, GovernanceStore, string] {
  const prefix = `t${++n}:`;
  const a = redisStore({ url: redis.url, prefix });
  const b = redisStore({ url: redis.url, prefix });
  opened.push(a, b);
  return [a, b, prefix];
}

beforeAll(async () => { redis = await startRedis(); });
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.stop();
});

const call = (url: string): CallContext => ({
  capability: 'web.click', manifest: { id: 'web.click', provider: 'sidecar', effects: [] } as unknown as Manifest,
  params: {}, decisions: [], startedAt: 0, url: new URL(url),
});
const ok = async () => ({ ok: true });
const outcome = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code: string; details: { budget?: string } }) => `${e.code}:${e.details.budget}`);

describe('shared store (real redis-server)', () => {
  it('per-domain budget: two hosts share one bucket, keyed under the prefix', async () => {
    const [a, b, prefix] = pair();
    const config = loadConfig({ budgets: { per_domain: { 'shop.test': 3 } } });
    const hostA = budgetPolicy(config, { admission: a.admission(undefined as never) });
    const hostB = budgetPolicy(config, { admission: b.admission(undefined as never) });
    expect(await outcome(hostA(call('http://shop.test/'), ok))).toBe('ok');
    expect(await outcome(hostB(call('http://shop.test/'), ok))).toBe('ok');
    expect(await outcome(hostA(call('http://shop.test/'), ok))).toBe('ok');
    expect(await outcome(hostB(call('http://shop.test/'), ok))).toBe('budget_exceeded:domain:shop.test');
    expect(await outcome(hostA(call('http://other.test/'), ok))).toBe('ok');
    const raw = new Redis(redis.url);
    expect((await raw.keys(`${prefix}*`)).sort()).toEqual([`${prefix}budget:domain:shop.test`, `${prefix}budget:global`, `${prefix}polite:other.test`, `${prefix}polite:shop.test`]);
    raw.disconnect();
  });

  it('politeness: a Crawl-delay gap is one clock for both hosts', async () => {
    const [a, b] = pair();
    const config = loadConfig({});
    const gates = [new PolitenessGate(config), new PolitenessGate(config)];
    gates.forEach((g) => g.setMinDelay('slow.test', 400));
    const hostA = budgetPolicy(config, { admission: a.admission(gates[0]) });
    const hostB = budgetPolicy(config, { admission: b.admission(gates[1]) });
    const first = call('http://slow.test/');
    // Counted from before the first admission: a stall between the two calls only adds to it.
    const started = Date.now();
    await hostA(first, ok);
    const second = call('http://slow.test/');
    await hostB(second, ok);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(second.decisions[0]).toMatchObject({ decision: 'waited' });
  });

  it('politeness: a site profile\'s min_delay_ms is kept fleet-wide by the host (yelp.com: 1500 ms)', async () => {
    const [a, b] = pair();
    const config = loadConfig({});
    const gate = () => new PolitenessGate(config, undefined, undefined, siteRates());
    expect(gate().gapFor('www.yelp.com')).toBe(1500);
    expect(gate().gapFor('shop.test')).toBe(0);
    const request = { buckets: [{ name: 'global', limit: 100, windowMs: 60_000 }], host: 'www.yelp.com', maxWaitMs: 100 };
    expect(await a.admission(gate()).admit(request)).toMatchObject({ ok: true });
    // The other host's next action on yelp is 1.5 s away: longer than this call may wait, so refused with when.
    const second = await b.admission(gate()).admit(request);
    expect(second).toMatchObject({ ok: false, kind: 'politeness' });
    expect((second as { dueMs: number }).dueMs).toBeGreaterThan(1000);
  });

  it('robots.txt is fetched once for the fleet; approvals given to one host cover the other', async () => {
    const [a, b] = pair();
    const config = loadConfig({});
    let fetches = 0;
    const fetch = async () => { fetches++; return { kind: 'rules' as const, body: 'User-agent: *\nDisallow: /private', url: 'http://shop.test/robots.txt' }; };
    expect((await new RobotsCache(config, { fetch, shared: a.values('robots') }).check(new URL('http://shop.test/private/x'))).allowed).toBe(false);
    expect((await new RobotsCache(config, { fetch, shared: b.values('robots') }).check(new URL('http://shop.test/private/x'))).allowed).toBe(false);
    expect(fetches).toBe(1);

    const asked: string[] = [];
    const gate = (s: GovernanceStore) => new ConsentGate({ config: config.consent, approvals: s.values('approvals'), asker: async (q) => (asked.push(q.capability), true), record: async () => undefined });
    const q = { capability: 'web.click', origin: 'https://shop.test', reason: 'form_submit', question: 'Allow?' };
    expect(await gate(a).confirm(q)).toMatchObject({ approved: true, source: 'asker' });
    expect(await gate(b).confirm(q)).toMatchObject({ approved: true, source: 'remembered' });
    expect(await gate(b).confirm({ ...q, origin: 'https://other.test' })).toMatchObject({ source: 'asker' }); // scoped as before
    expect(asked).toHaveLength(2);
  });

  it('search quotas and the result cache are shared', async () => {
    const [a, b, prefix] = pair();
    const config = loadConfig({});
    const state = (s: GovernanceStore) => new ProviderState(s.providerState('/unused'), { failures: 3, openMs: 60_000 });
    await state(a).begin('serpapi', { daily_quota: 2 });
    await state(b).begin('serpapi', { daily_quota: 2 });
    expect((await failure(state(a).begin('serpapi', { daily_quota: 2 }))).details).toMatchObject({ budget: 'daily_quota' });
    const key = 'a'.repeat(64);
    expect(await a.resultCache(config).set(key, { title: 'cached' })).toBe(true);
    expect(await b.resultCache(config).get(key)).toMatchObject({ value: { title: 'cached' }, stale: false });
    const raw = new Redis(redis.url);
    expect(await raw.exists(`${prefix}search:provider-state:lock`)).toBe(0); // released by its holder, not left to expire
    raw.disconnect();
  });

  it('a Redis that stops answering (CLIENT PAUSE) is a refusal after the 1 s command timeout, not a wait', async () => {
    const [a] = pair();
    const policy = budgetPolicy(loadConfig({ budgets: { per_domain: { 'shop.test': 100 } } }), { admission: a.admission(undefined as never) });
    expect(await outcome(policy(call('http://shop.test/'), ok))).toBe('ok');
    const raw = new Redis(redis.url);
    // Paused five times the command timeout: a policy that waited for Redis would get its answer
    // when the pause ends and admit the call, and failure() would say so. The test sits out the
    // whole pause (it measured 30 s with a 30 s pause), so the pause is no longer than that.
    await raw.client('PAUSE', 5000, 'ALL');
    const err = await failure(policy(call('http://shop.test/'), ok));
    expect([err.code, err.details.reason]).toEqual(['budget_exceeded', 'store_unavailable']);
    await raw.client('UNPAUSE');
    raw.disconnect();
    expect(await outcome(policy(call('http://shop.test/'), ok))).toBe('ok');
  });

  it('fails closed while Redis is down, records it in the chain, and passes again when it is back (no restart)', async () => {
    const config = testConfig({ browser: { domains_allowlist: ['127.0.0.1'] }, budgets: { per_domain: { '127.0.0.1': 1000 } }, consent: { non_interactive: 'deny', require: ['web.scrape'] } });
    const host = testHost({ ...config, store: { url: redis.url, prefix: `t${++n}:` } } as typeof config);
    // Admitted by the budget, then refused by consent: a call that costs nothing past the budget.
    const scrape = () => failure(host.call('web.scrape', { url: 'http://127.0.0.1:9/page' }));
    const [c] = pair();
    try {
      expect((await scrape()).code).toBe('consent_denied');
      await redis.stop();
      const down = await scrape();
      expect(down.code).toBe('budget_exceeded');
      expect(down.details.reason).toBe('store_unavailable');
      expect(await c.resultCache(loadConfig({})).get('b'.repeat(64))).toBeUndefined(); // a miss, not an error
      expect(await c.resultCache(loadConfig({})).set('b'.repeat(64), 1)).toBe(false);
      const quota = await failure(new ProviderState(c.providerState('/unused'), { failures: 3, openMs: 1000 }).begin('exa', { daily_quota: 5 }));
      expect([quota.code, quota.details.reason]).toEqual(['budget_exceeded', 'store_unavailable']);
      await redis.start();
      let code = '';
      for (const until = Date.now() + 10_000; Date.now() < until && code !== 'consent_denied';) {
        code = (await scrape()).code;
        if (code !== 'consent_denied') await new Promise((r) => setTimeout(r, 200));
      }
      expect(code).toBe('consent_denied');
    } finally {
      await host.close();
    }
    const events = readFileSync(host.config.chain.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; result?: { event?: string } })
      .filter((e) => e.kind === 'event').map((e) => e.result?.event);
    expect(events).toEqual(['store_unavailable', 'store_available']);
  });
});
