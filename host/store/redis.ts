// The Redis store ([store] url): budgets, the politeness clock, robots.txt,
// approvals, search quotas and breakers, and the result cache, shared by every
// host that names the same url and prefix.
import { RedisAdmission } from '../budget/redis-admission.js';
import { RedisResultCache } from '../cache/redis-cache.js';
import { RedisStateBackend } from '../search/provider-state-redis.js';
import { RedisConnection, type RedisSettings } from './redis-connection.js';
import { redisChecks } from './redis-checks.js';
import { RedisValues } from './redis-values.js';
import type { GovernanceStore } from './types.js';

export function redisStore(settings: RedisSettings): GovernanceStore {
  const redis = new RedisConnection(settings);
  const values = new RedisValues(redis);
  return {
    kind: 'redis',
    admission: (politeness) => new RedisAdmission(redis, politeness),
    values: () => values,
    resultCache: (config) => new RedisResultCache(redis, { enabled: config.cache.enabled, ttlMs: config.cache.ttl_s * 1000, maxBytes: config.cache.max_bytes }),
    providerState: () => new RedisStateBackend(redis),
    checks: redisChecks(redis),
    onEvent: (listener) => redis.onEvent(listener),
    close: () => redis.close(),
  };
}
