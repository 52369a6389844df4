import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../../host/cache/key.js';
import { cacheFor, DiskCache } from '../../../host/cache/index.js';
import { loadConfig } from '../../../host/config/load.js';
import { tempDir } from '../../helpers/host.js';

const key = (n: number | string) => cacheKey('test', { n });
const clock = (start = 1_700_000_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
};

describe('DiskCache', () => {
  it('returns what was stored, fresh, with its age', async () => {
    const c = clock();
    const cache = new DiskCache({ dir: tempDir(), now: c.now });
    await cache.set(key(1), { title: 'Hello', items: [1, 2, 3] });
    c.advance(1500);
    expect(await cache.get(key(1))).toEqual({ value: { title: 'Hello', items: [1, 2, 3] }, stale: false, age_ms: 1500 });
  });

  it('misses on an unknown key and on a key that is not a digest', async () => {
    const cache = new DiskCache({ dir: tempDir() });
    expect(await cache.get(key('never stored'))).toBeUndefined();
    expect(await cache.get('../../etc/passwd')).toBeUndefined();
    await expect(cache.set('../evil', 1)).rejects.toThrow(/sha256/);
  });

  it('keeps an entry past its TTL but marks it stale', async () => {
    const c = clock();
    const cache = new DiskCache({ dir: tempDir(), ttlMs: 60_000, now: c.now });
    await cache.set(key(1), 'v');
    c.advance(60_000);
    expect((await cache.get(key(1)))?.stale).toBe(false);
    c.advance(1);
    expect(await cache.get(key(1))).toEqual({ value: 'v', stale: true, age_ms: 60_001 });
  });

  it('is off when disabled: nothing read, nothing written', async () => {
    const dir = tempDir();
    const cache = new DiskCache({ dir, enabled: false });
    expect(await cache.set(key(1), 'v')).toBe(false);
    expect(await cache.get(key(1))).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('survives a restart: a new instance on the same folder finds the entry', async () => {
    const dir = tempDir();
    await new DiskCache({ dir }).set(key(1), { a: 1 });
    expect((await new DiskCache({ dir }).get(key(1)))?.value).toEqual({ a: 1 });
  });

  it('treats a corrupt entry as a miss', async () => {
    const dir = tempDir();
    const cache = new DiskCache({ dir });
    await cache.set(key(1), 'v');
    const file = join(dir, key(1).slice(0, 2), `${key(1)}.json`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, '{"key": "trunc');
    expect(await cache.get(key(1))).toBeUndefined();
  });

  it('evicts the least recently used entries past max_bytes', async () => {
    const c = clock();
    const dir = tempDir();
    const payload = 'x'.repeat(1000); // each entry ≈ 1.1 kB on disk
    const cache = new DiskCache({ dir, maxBytes: 3500, now: c.now });
    for (const n of [1, 2, 3]) { await cache.set(key(n), payload); c.advance(1000); }
    await cache.get(key(1)); // 1 is now the most recently used; 2 is the oldest
    c.advance(1000);
    await cache.set(key(4), payload);
    expect(await cache.get(key(2))).toBeUndefined();
    for (const n of [1, 3, 4]) expect((await cache.get(key(n)))?.value).toBe(payload);
    const size = await cache.size();
    expect(size.entries).toBe(3);
    expect(size.bytes).toBeLessThanOrEqual(3500);
  });

  it('counts entries written by another process when it evicts', async () => {
    const c = clock();
    const dir = tempDir();
    const payload = 'y'.repeat(1000);
    const other = new DiskCache({ dir, now: c.now });
    const mine = new DiskCache({ dir, maxBytes: 2500, now: c.now });
    await mine.size(); // index scanned while the folder is empty
    await other.set(key('a'), payload); c.advance(1000);
    await other.set(key('b'), payload); c.advance(60_000);
    await mine.set(key('c'), payload);
    expect(await mine.get(key('a'))).toBeUndefined();
    expect((await mine.get(key('c')))?.value).toBe(payload);
  });

  it('refuses one entry larger than the whole cache', async () => {
    const cache = new DiskCache({ dir: tempDir(), maxBytes: 100 });
    expect(await cache.set(key(1), 'z'.repeat(200))).toBe(false);
    expect(await cache.get(key(1))).toBeUndefined();
  });

  it('records use in the file time, so recency outlives the process', async () => {
    const c = clock();
    const dir = tempDir();
    const cache = new DiskCache({ dir, now: c.now });
    await cache.set(key(1), 'v');
    c.advance(5_000);
    await cache.get(key(1));
    const file = join(dir, key(1).slice(0, 2), `${key(1)}.json`);
    expect(Math.round(statSync(file).mtimeMs)).toBe(c.now());
  });

  it('answers a hit on a real 200 kB entry from a fresh process, whole', async () => {
    const cache = new DiskCache({ dir: tempDir() });
    const article = { title: 'A long article', content_markdown: 'word '.repeat(40_000), links: Array.from({ length: 500 }, (_, i) => `https://example.org/${i}`) };
    await cache.set(key('article'), article);
    const fresh = new DiskCache({ dir: cache.dir }); // cold process: index not loaded yet
    const hit = await fresh.get<typeof article>(key('article'));
    expect(hit?.value.content_markdown.length).toBe(200_000);
    expect(hit?.value.links).toHaveLength(500);
    expect(hit?.stale).toBe(false);
  });
});

describe('cacheFor(config)', () => {
  it('lives under the workspace with the [cache] settings and defaults', () => {
    const dir = tempDir();
    const config = loadConfig({ workspace: { path: dir } });
    expect(config.cache).toEqual({ enabled: true, ttl_s: 86400, max_bytes: 1073741824 });
    const cache = cacheFor(config) as unknown as { dir: string; ttlMs: number };
    expect(cache.dir).toBe(join(dir, 'cache'));
    expect(cache.ttlMs).toBe(86_400_000);
    expect(cacheFor(config)).toBe(cache);
    expect(existsSync(cache.dir)).toBe(false); // nothing created until something is stored
  });

  it('rejects a wrong [cache] key like every other section', () => {
    expect(() => loadConfig({ cache: { ttl: 5 } })).toThrow(/unknown key "cache.ttl"/);
    expect(() => loadConfig({ cache: { max_bytes: -1 } })).toThrow(/cache.max_bytes/);
  });
});
