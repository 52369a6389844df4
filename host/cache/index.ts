// The cache a host uses: one DiskCache per workspace and settings, shared by
// every capability in the process so its size index is scanned once.
import { join } from 'node:path';
import type { WebcapConfig } from '../config/types.js';
import { DiskCache } from './store.js';

export { DiskCache, type CacheHit, type CacheOptions } from './store.js';
export { cacheKey, normaliseQuery, normaliseUrl } from './key.js';

const caches = new Map<string, DiskCache>();

export function cacheFor(config: Pick<WebcapConfig, 'workspace' | 'cache'>): DiskCache {
  const { enabled, ttl_s: ttl, max_bytes: maxBytes } = config.cache;
  const dir = join(config.workspace.path, 'cache');
  const id = JSON.stringify([dir, enabled, ttl, maxBytes]);
  let cache = caches.get(id);
  if (!cache) caches.set(id, (cache = new DiskCache({ dir, enabled, ttlMs: ttl * 1000, maxBytes })));
  return cache;
}
