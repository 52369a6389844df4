// The result cache counts its lookups (a real DiskCache in a temp folder), and
// the browser's memory is read from /proc for the processes under a root pid.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cacheKey, DiskCache } from '../../../host/cache/index.js';
import { registry } from '../../../host/metrics/metrics.js';
import { chromiumRssBytes } from '../../../host/metrics/rss.js';
import { tempDir } from '../../helpers/host.js';

async function cacheCount(result: string): Promise<number> {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === 'webcap_cache_requests_total');
  return Number(m?.values.find((v) => v.labels.result === result)?.value ?? 0);
}

describe('metrics from the parts', () => {
  it('counts cache misses, hits and stale hits', async () => {
    let now = 0;
    const cache = new DiskCache({ dir: tempDir(), enabled: true, ttlMs: 1000, maxBytes: 1e6, now: () => now });
    const key = cacheKey('scrape', { url: 'http://a.test/' });
    const before = { miss: await cacheCount('miss'), hit: await cacheCount('hit'), stale: await cacheCount('stale') };
    await cache.get(key);
    await cache.set(key, { v: 1 });
    await cache.get(key);
    now = 5000;
    await cache.get(key);
    expect(await cacheCount('miss')).toBe(before.miss + 1);
    expect(await cacheCount('hit')).toBe(before.hit + 1);
    expect(await cacheCount('stale')).toBe(before.stale + 1);
  });

  it('sums the resident memory of the processes under a root, not the root itself', async () => {
    // A shell (the root) with a child that holds memory, as the sidecar holds Chromium.
    const root = spawn('/bin/sh', ['-c', 'node -e "globalThis.b = Buffer.alloc(64e6, 1); setTimeout(() => {}, 20000)" & wait'], { stdio: 'ignore', detached: true });
    try {
      let rss = 0;
      for (let i = 0; i < 100 && rss < 64e6; i++) { await new Promise((r) => setTimeout(r, 100)); rss = await chromiumRssBytes([root.pid!]); }
      expect(rss).toBeGreaterThan(64e6);
      expect(await chromiumRssBytes([])).toBe(0);
    } finally {
      process.kill(-root.pid!, 'SIGKILL');
    }
  });
});
