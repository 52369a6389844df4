// web.scrape (host provider). The policy chain has already approved the URL
// (allowlist, robots, SSRF, budget). Here: the cache, then the page rendered
// by the sidecar's browser, or, when no browser can run, a plain HTTP fetch
// through the same network rules (rendered: false), then the pipeline.
import { WebcapError } from '../../manifests/errors.js';
import { cacheFor, cacheKey, normaliseUrl } from '../cache/index.js';
import type { HostProvider, HostProviderContext } from '../providers/types.js';
import { fetchPage } from './http-fetch.js';
import { scrapePage } from './pipeline.js';
import type { FetchedPage, ScrapedContent, ScrapeFormat } from './types.js';

interface ScrapeParams { url: string; format?: ScrapeFormat; main_content?: boolean; cache?: boolean; timeout?: number }

// Failures that mean "no browser here", not "this page failed": only these fall back.
const NO_BROWSER = new Set(['browser_crashed', 'sidecar_crashed']);
const BROWSER_START_MS = 15_000;

export const scrapeProvider: HostProvider = async (raw, ctx) => {
  const started = performance.now();
  const params = raw as unknown as ScrapeParams;
  const opts = { format: params.format ?? 'markdown', mainContent: params.main_content ?? true };
  const cache = cacheFor(ctx.config);
  const key = cacheKey('scrape', { url: normaliseUrl(params.url), format: opts.format, main_content: opts.mainContent });
  const elapsed = () => Math.round(performance.now() - started);

  if (params.cache !== false) {
    const hit = await cache.get<ScrapedContent>(key).catch(() => undefined);
    if (hit && !hit.stale) return { ...hit.value, scrape_time_ms: elapsed(), cached: true };
  }
  const { page, fallbackReason } = await loadPage(params, ctx);
  const content = scrapePage(page, opts);
  if (fallbackReason) content.metadata.render_fallback = fallbackReason;
  // A page read without its JavaScript because the browser failed may be missing text:
  // not worth keeping for a day. With the browser off by config it is the best there is.
  if (!fallbackReason || !ctx.config.capabilities.browser.enabled) {
    await cache.set(key, content).catch((err: unknown) => ctx.log.warn({ err: String(err) }, 'web.scrape: could not write the cache'));
  }
  return { ...content, scrape_time_ms: elapsed(), cached: false };
};

async function loadPage(params: ScrapeParams, ctx: HostProviderContext): Promise<{ page: FetchedPage; fallbackReason?: string }> {
  const timeout = params.timeout ?? ctx.config.capabilities.browser.default_timeout_ms;
  const started = Date.now();
  if (!ctx.config.capabilities.browser.enabled) {
    return { page: await fetchPage(params.url, ctx.config, timeout), fallbackReason: 'browser disabled ([capabilities.browser] enabled = false)' };
  }
  try {
    // `timeout` bounds loading the page; starting the sidecar and Chromium comes on top.
    const r = await ctx.sidecar('web.scrape', { url: params.url, timeout }, timeout + BROWSER_START_MS);
    return { page: { url: r.url as string, status: (r.status as number | null) ?? null, headers: (r.headers as Record<string, string>) ?? {}, html: r.html as string, rendered: true } };
  } catch (err) {
    if (!(err instanceof WebcapError) || !NO_BROWSER.has(err.code)) throw err;
    const reason = `${err.code}: ${ctx.redactor.redactString(err.message)}`;
    ctx.log.warn({ url: params.url, reason }, 'web.scrape: browser unavailable, fetching over plain HTTP');
    const left = timeout - (Date.now() - started);
    if (left <= 0) throw new WebcapError('timeout', `web.scrape: ${params.url} was not read within ${timeout} ms (the browser failed first: ${err.code})`, { timeout_ms: timeout });
    return { page: await fetchPage(params.url, ctx.config, left), fallbackReason: reason };
  }
}
