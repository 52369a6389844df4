// An on-disk cache for scrape and search results, under the workspace
// (<workspace>/cache/ab/abcdef….json, one JSON file per entry).
//
// Expired entries are not deleted: get() returns them marked `stale` so a
// caller whose sources all failed can still answer (web.search's `auto`).
// Space is bounded instead by max_bytes, least recently used first; "used" is
// the file's mtime, touched on every hit, so recency survives restarts and is
// shared by processes using the same workspace.
import { mkdir, readdir, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { countedLookup } from '../metrics/metrics.js';
import { writeFileSafely } from '../../manifests/safe-write.js';
import { readJsonSafely } from '../files/safe-read.js';

export interface CacheOptions {
  dir: string;
  enabled?: boolean;
  ttlMs?: number;
  maxBytes?: number;
  now?: () => number;
}

export interface CacheHit<T = unknown> {
  value: T;
  /** Older than the TTL: usable only as a last resort. */
  stale: boolean;
  age_ms: number;
}

interface IndexEntry { bytes: number; usedAt: number }
interface StoredEntry { key: string; stored_at: number; value: unknown }

const KEY = /^[0-9a-f]{64}$/;
const DEFAULT_TTL_MS = 24 * 3600 * 1000;
export const DEFAULT_MAX_BYTES = 1024 ** 3;
const RESCAN_AFTER_MS = 60_000;

export class DiskCache {
  readonly dir: string;
  readonly enabled: boolean;
  readonly ttlMs: number;
  readonly maxBytes: number;
  private readonly now: () => number;
  private index?: Promise<Map<string, IndexEntry>>;
  private totalBytes = 0;
  private evicting?: Promise<void>;
  private scannedAt = 0;

  constructor(opts: CacheOptions) {
    this.dir = opts.dir;
    this.enabled = opts.enabled ?? true;
    this.ttlMs = opts.ttlMs ?? DEFAULT_TTL_MS;
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.now = opts.now ?? Date.now;
  }

  async get<T = unknown>(key: string): Promise<CacheHit<T> | undefined> {
    return countedLookup(await this.lookup<T>(key));
  }

  private async lookup<T>(key: string): Promise<CacheHit<T> | undefined> {
    if (!this.enabled || !KEY.test(key)) return undefined;
    const file = this.fileOf(key);
    let entry: StoredEntry;
    try {
      entry = await readJsonSafely(file, { what: 'cache entry', maxBytes: this.maxBytes }) as StoredEntry;
      if (!entry || typeof entry !== 'object') throw new Error('not an entry');
    } catch {
      // Missing, half-written by a crashed process, hand-edited or a planted link: a miss either way.
      (await this.loadIndex()).delete(key);
      return undefined;
    }
    if (entry.key !== key || typeof entry.stored_at !== 'number') return undefined;
    const now = this.now();
    await this.touch(key, file, now);
    const age = Math.max(0, now - entry.stored_at);
    return { value: entry.value as T, stale: age > this.ttlMs, age_ms: age };
  }

  /** Stores value (anything JSON can carry). Returns false when disabled or when one entry alone exceeds max_bytes. */
  async set(key: string, value: unknown): Promise<boolean> {
    if (!this.enabled) return false;
    if (!KEY.test(key)) throw new Error(`cache key must be a sha256 hex digest (use cacheKey()), got "${key.slice(0, 80)}"`);
    const now = this.now();
    const text = JSON.stringify({ key, stored_at: now, value } satisfies StoredEntry);
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxBytes) return false;
    const file = this.fileOf(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    // Write then rename (the safe writer), so a reader never sees half an entry and a planted link is refused.
    await writeFileSafely(file, text, { root: this.dir, what: 'cache' });
    await utimes(file, new Date(now), new Date(now)).catch(() => undefined);
    const index = await this.loadIndex();
    this.totalBytes += bytes - (index.get(key)?.bytes ?? 0);
    index.set(key, { bytes, usedAt: now });
    // Our count misses what other processes wrote since the scan; past a minute, look again before judging.
    if (this.totalBytes > this.maxBytes || now - this.scannedAt > RESCAN_AFTER_MS) await this.rescanAndEvict();
    return true;
  }

  async delete(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await unlink(this.fileOf(key)).catch(() => undefined);
    const index = await this.loadIndex();
    this.totalBytes -= index.get(key)?.bytes ?? 0;
    index.delete(key);
  }

  /** Bytes on disk as this process knows them (entries written by others are counted at the next scan). */
  async size(): Promise<{ entries: number; bytes: number }> {
    const index = await this.loadIndex();
    return { entries: index.size, bytes: this.totalBytes };
  }

  private fileOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  private async touch(key: string, file: string, now: number): Promise<void> {
    const when = new Date(now);
    await utimes(file, when, when).catch(() => undefined);
    const known = (await this.loadIndex()).get(key);
    if (known) known.usedAt = now;
  }

  private loadIndex(): Promise<Map<string, IndexEntry>> {
    this.index ??= this.scan();
    return this.index;
  }

  private async scan(): Promise<Map<string, IndexEntry>> {
    const index = new Map<string, IndexEntry>();
    let total = 0;
    this.scannedAt = this.now();
    const shards = await readdir(this.dir).catch(() => [] as string[]);
    for (const shard of shards) {
      const names = await readdir(join(this.dir, shard)).catch(() => [] as string[]);
      for (const name of names) {
        const key = name.slice(0, -'.json'.length);
        if (!name.endsWith('.json') || !KEY.test(key)) continue;
        const s = await stat(join(this.dir, shard, name)).catch(() => undefined);
        if (!s) continue;
        index.set(key, { bytes: s.size, usedAt: s.mtimeMs });
        total += s.size;
      }
    }
    this.totalBytes = total;
    return index;
  }

  private rescanAndEvict(): Promise<void> {
    this.evicting ??= (async () => {
      try {
        // Re-read the folder first: other processes may have added or removed entries.
        this.index = this.scan();
        const index = await this.index;
        if (this.totalBytes <= this.maxBytes) return;
        const oldestFirst = [...index.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
        for (const [key] of oldestFirst) {
          if (this.totalBytes <= this.maxBytes) break;
          await this.delete(key);
        }
      } finally {
        this.evicting = undefined;
      }
    })();
    return this.evicting;
  }
}
