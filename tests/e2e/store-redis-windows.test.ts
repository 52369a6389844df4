// Hour and day budgets in the shared store, against a real redis-server: two
// hosts share one window, the refusal says when the oldest admission in it
// stops counting, and the call is admitted once Redis's own clock reaches it.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOWS } from '../../host/budget/admission.js';
import { loadConfig } from '../../host/config/load.js';
import { budgetPolicy } from '../../host/policies/budget.js';
import type { CallContext } from '../../host/policies/types.js';
import { redisStore } from '../../host/store/redis.js';
import type { GovernanceStore } from '../../host/store/types.js';
import type { Manifest } from '../../manifests/load.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let raw: Redis;
const opened: GovernanceStore[] = [];
beforeAll(async () => { redis = await startRedis(); raw = new Redis(redis.url); });
afterAll(async () => {
  raw?.disconnect();
  await Promise.all(opened.map((s) => s.close()));
  await redis?.stop();
});

const call = (id: string, url?: string): CallContext => ({
  capability: id, manifest: { id, provider: 'sidecar', effects: [] } as unknown as Manifest, params: {}, decisions: [], startedAt: 0, url: url ? new URL(url) : undefined,
});
const ok = async () => ({ ok: true });
const attempt = (p: Promise<unknown>) => p.then(() => ({ ok: true as const }), (e: { code: string; details: Record<string, unknown> }) => ({ ok: false as const, code: e.code, budget: e.details.budget, retry: e.details.retry_after_ms as number }));
const redisNow = async () => { const [s, us] = await raw.time(); return Number(s) * 1000 + Math.floor(Number(us) / 1000); };

function hosts(prefix: string, budgets: Record<string, unknown>) {
  const config = loadConfig({ budgets, capabilities: { browser: { max_actions_per_minute: 10_000 } } });
  return [0, 1].map(() => {
    const store = redisStore({ url: redis.url, prefix });
    opened.push(store);
    return budgetPolicy(config, { admission: store.admission(undefined as never) });
  });
}

describe('budgets per hour and per day in Redis (real redis-server)', () => {
  it('per_capability_per_day: two hosts share the day; the key lives a day; the refusal names the day', async () => {
    const [a, b] = hosts('w1:', { per_capability_per_day: { 'web.screenshot': 2 } });
    expect(await attempt(a(call('web.screenshot'), ok))).toEqual({ ok: true });
    expect(await attempt(b(call('web.screenshot'), ok))).toEqual({ ok: true });
    const refused = await attempt(a(call('web.screenshot'), ok));
    expect(refused).toMatchObject({ ok: false, code: 'budget_exceeded', budget: 'capability:web.screenshot/day' });
    expect(refused.ok === false && refused.retry).toBeGreaterThan(WINDOWS.day - 60_000);
    expect(refused.ok === false && refused.retry).toBeLessThanOrEqual(WINDOWS.day);
    const key = `w1:budget:capability:web.screenshot/day@${WINDOWS.day}`;
    expect(await raw.zcard(key)).toBe(2); // the refusal took nothing
    expect(await raw.pttl(key)).toBeGreaterThan(WINDOWS.day - 60_000);
  });

  it('per_domain_per_hour: an admission an hour old stops counting exactly then (Redis\'s clock)', async () => {
    const [a, b] = hosts('w2:', { per_domain_per_hour: { 'shop.test': 2 } });
    expect(await attempt(a(call('web.navigate', 'http://shop.test/'), ok))).toEqual({ ok: true });
    // An admission made by some host almost an hour ago: it stops counting 800 ms from now.
    const edge = (await redisNow()) + 800;
    const key = `w2:budget:domain:shop.test/hour@${WINDOWS.hour}`;
    await raw.zadd(key, edge - WINDOWS.hour, 'an-hour-ago');
    const refused = await attempt(b(call('web.navigate', 'http://shop.test/'), ok));
    expect(refused).toMatchObject({ ok: false, budget: 'domain:shop.test/hour' });
    const retry = refused.ok ? 0 : refused.retry;
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(800);
    // Just before the edge by Redis's clock: still refused (unless the machine stalled past it).
    while ((await redisNow()) < edge - 150) await new Promise((r) => setTimeout(r, 20));
    const early = await attempt(a(call('web.navigate', 'http://shop.test/'), ok));
    if ((await redisNow()) < edge) expect(early).toMatchObject({ ok: false });
    if (early.ok) {
      // The machine stalled past the edge, so this call was the one admitted once the old entry stopped counting.
      expect(await raw.zscore(key, 'an-hour-ago')).toBeNull();
      return;
    }
    while ((await redisNow()) < edge) await new Promise((r) => setTimeout(r, 10));
    expect(await attempt(a(call('web.navigate', 'http://shop.test/'), ok))).toEqual({ ok: true });
    expect(await raw.zscore(key, 'an-hour-ago')).toBeNull();
  });

  it('minute, hour and day windows of one capability are separate sets, all checked in one step', async () => {
    const [a] = hosts('w3:', { per_capability: { 'web.fill_form': 5 }, per_capability_per_hour: { 'web.fill_form': 1 }, per_capability_per_day: { 'web.fill_form': 9 } });
    expect(await attempt(a(call('web.fill_form'), ok))).toEqual({ ok: true });
    expect(await attempt(a(call('web.fill_form'), ok))).toMatchObject({ ok: false, budget: 'capability:web.fill_form/hour' });
    expect(await raw.zcard('w3:budget:capability:web.fill_form')).toBe(1);
    expect(await raw.zcard(`w3:budget:capability:web.fill_form/day@${WINDOWS.day}`)).toBe(1);
  });
});
