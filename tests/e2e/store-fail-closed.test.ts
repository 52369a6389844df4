// A Redis that answers with an error is a refusal, never a pass: each state a
// real redis-server can be put into (out of memory under noeviction, a
// read-only replica, scripts flushed and not reloadable, paused, a key of the
// wrong type) refuses the call on its budget, robots or approval path before
// the page is fetched, and the chain says why.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { redisStore } from '../../host/store/redis.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let raw: Redis;
let site: FixtureServer;
let n = 0;
/** Requests for the page itself (robots.txt is fetched before any page and is not one). */
const pageHits = () => site.hits.filter((h) => !h.endsWith('/robots.txt')).length;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
  site = await serve({
    '/robots.txt': (_req, res) => send(res, 'User-agent: *\nDisallow: /private', 200, 'text/plain'),
    '/': (_req, res) => send(res, html('<h1>Shop</h1>')),
  });
});
afterAll(async () => {
  raw?.disconnect();
  await site?.close();
  await redis?.stop();
});

type Entry = { kind: string; capability: string | null; error: { code: string } | null; decisions: Array<{ policy: string; decision: string; details?: { reason?: string } }>; result?: { event?: string; source?: string } | null; decision?: { reason?: string } | null };

function hostOnRedis(opts: { robots?: boolean; consentRequire?: string[] } = {}) {
  const prefix = `f${++n}:`;
  const config = testConfig({
    browser: { respect_robots: opts.robots ?? false, default_timeout_ms: 30_000 },
    network: { resolve: { 'shop.test': '127.0.0.1' } },
    consent: { non_interactive: 'approve', require: opts.consentRequire ?? [] },
  });
  const host = testHost({ ...config, store: { url: redis.url, prefix } } as typeof config);
  const chain = () => readFileSync(config.chain.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Entry);
  return { host, prefix, chain };
}

/** web.open of the fixture page is refused for the store, the page never asked for, and the chain's call entry says which check. */
async function expectRefused(h: ReturnType<typeof hostOnRedis>, policy: string) {
  const before = pageHits();
  const err = await failure(h.host.call('web.open', { url: site.url('shop.test', '/') }));
  expect([err.code, err.details.reason]).toEqual(['budget_exceeded', 'store_unavailable']);
  expect(pageHits() - before).toBe(0);
  const call = h.chain().filter((e) => e.kind === 'call' && e.capability === 'web.open').pop()!;
  expect(call.error?.code).toBe('budget_exceeded');
  expect(call.decisions.at(-1)).toMatchObject({ policy, decision: 'denied', details: { reason: 'store_unavailable' } });
}

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('store errors fail closed (real redis-server)', () => {
  it('out of memory under noeviction: the robots.txt answer and the budget cannot be kept, so both refuse', async () => {
    const withRobots = hostOnRedis({ robots: true });
    const budgetOnly = hostOnRedis();
    try {
      await raw.config('SET', 'maxmemory-policy', 'noeviction');
      await raw.config('SET', 'maxmemory', '1');
      await expectRefused(withRobots, 'robots');
      await expectRefused(budgetOnly, 'budget');
    } finally {
      await raw.config('SET', 'maxmemory', '0');
      await Promise.all([withRobots.host.close(), budgetOnly.host.close()]);
    }
  }, 90_000);

  it('a read-only replica (REPLICAOF a closed port): writes answer READONLY, both paths refuse', async () => {
    const withRobots = hostOnRedis({ robots: true });
    const budgetOnly = hostOnRedis();
    try {
      await raw.replicaof('127.0.0.1', await closedPort());
      await expectRefused(withRobots, 'robots');
      await expectRefused(budgetOnly, 'budget');
    } finally {
      await raw.replicaof('NO', 'ONE');
      await Promise.all([withRobots.host.close(), budgetOnly.host.close()]);
    }
  }, 90_000);

  it('scripts flushed and not reloadable (SCRIPT FLUSH, EVAL not permitted): refused; passes again once they load', async () => {
    const h = hostOnRedis();
    try {
      await raw.call('ACL', 'SETUSER', 'default', '-eval');
      await raw.script('FLUSH');
      await expectRefused(h, 'budget');
      await raw.call('ACL', 'SETUSER', 'default', '+eval');
      const before = pageHits();
      await h.host.call('web.open', { url: site.url('shop.test', '/') });
      expect(pageHits() - before).toBe(1); // the guard, not a broken fixture, stopped the first call
    } finally {
      await raw.call('ACL', 'SETUSER', 'default', '+eval');
      await h.host.close();
    }
  }, 90_000);

  it('a Redis that stops answering (CLIENT PAUSE): robots.txt and the budget time out and refuse', async () => {
    const withRobots = hostOnRedis({ robots: true });
    const budgetOnly = hostOnRedis();
    try {
      await raw.client('PAUSE', 6000, 'ALL');
      await expectRefused(withRobots, 'robots');
      await expectRefused(budgetOnly, 'budget');
    } finally {
      await raw.client('UNPAUSE');
      await Promise.all([withRobots.host.close(), budgetOnly.host.close()]);
    }
  }, 90_000);

  it('a key of the wrong type on the budget, robots and approval paths: WRONGTYPE refuses each', async () => {
    const budget = hostOnRedis();
    const robots = hostOnRedis({ robots: true });
    const approval = hostOnRedis({ consentRequire: ['web.open'] });
    const origin = new URL(site.url('shop.test', '/')).origin;
    try {
      await raw.hset(`${budget.prefix}budget:global`, 'planted', '1');
      await raw.hset(`${robots.prefix}val:robots:${origin}`, 'planted', '1');
      await raw.hset(`${approval.prefix}val:approval:${JSON.stringify(['web.open', origin, '', 'config_require'])}`, 'planted', '1');
      await expectRefused(budget, 'budget');
      await expectRefused(robots, 'robots');
      await expectRefused(approval, 'consent');
      // The approval path records the refusal as a consent decision too.
      expect(approval.chain().filter((e) => e.kind === 'consent').pop()?.decision?.reason).toBe('config_require (store_unavailable)');
    } finally {
      await Promise.all([budget.host.close(), robots.host.close(), approval.host.close()]);
    }
  }, 90_000);
});

describe('the result cache on a store that answers wrongly', () => {
  it('a key of the wrong type or a planted value is a miss, never a hit', async () => {
    const store = redisStore({ url: redis.url, prefix: 'cache-planted:' });
    try {
      const cache = store.resultCache(loadConfig({}));
      await raw.hset(`cache-planted:cache:${'c'.repeat(64)}`, 'planted', '1');
      await raw.set(`cache-planted:cache:${'d'.repeat(64)}`, '{"planted":true}');
      expect(await cache.get('c'.repeat(64))).toBeUndefined();
      expect(await cache.get('d'.repeat(64))).toBeUndefined();
      expect(await cache.set('e'.repeat(64), { ok: 1 })).toBe(true);
      expect(await cache.get('e'.repeat(64))).toMatchObject({ value: { ok: 1 }, stale: false });
    } finally {
      await store.close();
    }
  });
});
