// web.scrape (host provider). The policy chain has already approved the URL
// (allowlist, robots, SSRF, budget). Here: the cache, then the page, read the
// cheapest way that gives its text (host/scrape/render-choice.ts: plain HTTP
// first, Chromium only when the page needs it or the caller asks), then the
// pipeline. The result says which path ran and why (`render`).
import { cacheFor, cacheKey, normaliseUrl } from '../cache/index.js';
import { ownerOf } from '../cache/owner.js';
import type { HostProvider } from '../providers/types.js';
import { loadAdaptive, type RenderMode } from './render-choice.js';
import type { ScrapedContent, ScrapeFormat } from './types.js';

export const scrapeProvider: HostProvider<'web.scrape'> = async (params, ctx) => {
  const started = performance.now();
  const mode: RenderMode = params.render ?? 'auto';
  const opts = { format: params.format ?? 'markdown', mainContent: params.main_content ?? true };
  const cache = cacheFor(ctx.config);
  const key = cacheKey('scrape', { url: normaliseUrl(params.url), format: opts.format, main_content: opts.mainContent, render: mode === 'auto' ? undefined : mode, ...ownerOf(ctx.call) });
  const elapsed = () => Math.round(performance.now() - started);

  if (params.cache !== false) {
    const hit = await cache.get<ScrapedContent>(key).catch(() => undefined);
    if (hit && !hit.stale) return { ...hit.value, scrape_time_ms: elapsed(), cached: true };
  }
  const { content, fallbackReason } = await loadAdaptive(params, mode, opts, ctx, cache);
  // A page read without its JavaScript because the browser failed may be missing text:
  // not worth keeping for a day. With the browser off by config it is the best there is.
  if (!fallbackReason || !ctx.config.capabilities.browser.enabled) {
    await cache.set(key, content).catch((err: unknown) => ctx.log.warn({ err: String(err) }, 'web.scrape: could not write the cache'));
  }
  return { ...content, scrape_time_ms: elapsed(), cached: false };
};
