// The result cache a host uses: the workspace's DiskCache (embedded store) or
// Redis ([store] url), shared by every capability in the process.
import type { WebcapConfig } from '../config/types.js';
import { storeFor } from '../store/index.js';
import type { ResultCache } from './result-cache.js';

export { DiskCache, type CacheHit, type CacheOptions } from './store.js';
export { cacheKey, normaliseQuery, normaliseUrl } from './key.js';
export type { ResultCache } from './result-cache.js';

export function cacheFor(config: Pick<WebcapConfig, 'workspace' | 'cache' | 'store'>): ResultCache {
  return storeFor(config).resultCache(config);
}
