// What a capability needs from the result cache, whichever store holds it:
// the workspace's DiskCache (embedded) or Redis (shared by every host).
import type { CacheHit } from './store.js';

export interface ResultCache {
  get<T = unknown>(key: string): Promise<CacheHit<T> | undefined>;
  /** false when nothing was stored (disabled, too large, store unavailable). */
  set(key: string, value: unknown): Promise<boolean>;
}
