// The scrape/search result cache in Redis: one key per entry
// (<prefix>cache:<sha256>), read by every host. Same contract as DiskCache:
// past [cache] ttl_s an entry is returned marked stale (web.search's last
// resort), and Redis drops it STALE_KEEP_MS later; space is Redis's to bound
// (maxmemory). An unavailable Redis is a miss, never an error: the call goes
// to the source instead, and the connection reports the outage to the chain.
import type { RedisConnection } from '../store/redis-connection.js';
import { countedLookup } from '../metrics/metrics.js';
import type { ResultCache } from './result-cache.js';
import type { CacheHit } from './store.js';

const KEY = /^[0-9a-f]{64}$/;
/** How long an expired entry is kept for the stale fallback. */
const STALE_KEEP_MS = 7 * 24 * 3600 * 1000;

export class RedisResultCache implements ResultCache {
  constructor(private readonly redis: RedisConnection, private readonly opts: { enabled: boolean; ttlMs: number; maxBytes: number }) {}

  async get<T = unknown>(key: string): Promise<CacheHit<T> | undefined> {
    return countedLookup(await this.lookup<T>(key));
  }

  private async lookup<T>(key: string): Promise<CacheHit<T> | undefined> {
    if (!this.opts.enabled || !KEY.test(key)) return undefined;
    const text = await this.redis.run((c) => c.get(`cache:${key}`)).catch(() => null);
    if (!text) return undefined;
    try {
      const entry = JSON.parse(text) as { stored_at: number; value: T };
      // Anything but an entry this cache wrote (a planted or truncated value) is a miss, never a hit of nothing.
      if (!entry || typeof entry !== 'object' || !Number.isFinite(entry.stored_at) || !('value' in entry)) return undefined;
      const age = Math.max(0, Date.now() - entry.stored_at);
      return { value: entry.value, stale: age > this.opts.ttlMs, age_ms: age };
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown): Promise<boolean> {
    if (!this.opts.enabled) return false;
    if (!KEY.test(key)) throw new Error(`cache key must be a sha256 hex digest (use cacheKey()), got "${key.slice(0, 80)}"`);
    const text = JSON.stringify({ stored_at: Date.now(), value });
    if (Buffer.byteLength(text) > this.opts.maxBytes) return false;
    return this.redis.run((c) => c.set(`cache:${key}`, text, 'PX', this.opts.ttlMs + STALE_KEEP_MS)).then(() => true, () => false);
  }
}
