// Which path reads the page. "never": plain HTTP. "always": Chromium (plain
// HTTP only if no browser can run). "auto" (default): plain HTTP first, through
// the same network rules on every hop (http-fetch.ts), then Chromium only when
// the page needs it: the served HTML is an app shell or has little readable
// text, the domain is known to need it (render-memory.ts), or the domain is
// still being learned (its first pages are read both ways and compared).
import { WebcapError } from '../../manifests/errors.js';
import type { HostProviderContext } from '../providers/types.js';
import { fetchPage } from './http-fetch.js';
import { scrapePage, scrapeWithSigns } from './pipeline.js';
import { LEARN_PAGES, learn, recall, remember, type MemoryStore } from './render-memory.js';
import type { FetchedPage, ScrapedContent, ScrapeOptions } from './types.js';

export type RenderMode = 'auto' | 'always' | 'never';
export interface RenderChoice { mode: RenderMode; path: 'http' | 'browser'; reason: string }
interface Loaded { content: ScrapedContent; fallbackReason?: string }
interface Params { url: string; timeout?: number }

// Failures that mean "no browser here", not "this page failed": only these fall back.
const NO_BROWSER = new Set(['browser_crashed', 'sidecar_crashed']);
// What a plain client may be refused while a browser is let in: worth one try in the browser.
const REFUSED_OVER_HTTP = new Set(['captcha_detected', 'blocked']);
const BROWSER_START_MS = 15_000;

export async function loadAdaptive(params: Params, mode: RenderMode, opts: ScrapeOptions, ctx: HostProviderContext, memory: MemoryStore): Promise<Loaded> {
  const timeout = params.timeout ?? ctx.config.capabilities.browser.default_timeout_ms;
  const deadline = Date.now() + timeout;
  const left = () => deadline - Date.now();
  const http = async (reason: string, fallbackReason?: string): Promise<Loaded> => {
    const page = await fetchPage(params.url, ctx.config, left(), ctx.robots);
    const content = scrapePage(page, opts);
    if (fallbackReason) content.metadata.render_fallback = fallbackReason;
    return finish(content, { mode, path: 'http', reason }, fallbackReason);
  };
  if (!ctx.config.capabilities.browser.enabled) {
    const why = 'browser disabled ([capabilities.browser] enabled = false)';
    return http(why, why);
  }
  if (mode === 'never') return http('render: "never"');
  if (mode === 'always') return rendered(params, opts, ctx, left, { mode, path: 'browser', reason: 'render: "always"' }, () => http('render: "always", but the browser is unavailable'));

  const host = new URL(params.url).hostname;
  const known = await recall(memory, host);
  if (known?.render_needed) {
    return rendered(params, opts, ctx, left, { mode, path: 'browser', reason: `domain memory: ${host} needs rendering (${known.evidence ?? 'learned earlier'})` }, () => http('domain needs rendering, but the browser is unavailable'));
  }
  let page: FetchedPage;
  let signs: ReturnType<typeof scrapeWithSigns>;
  try {
    page = await fetchPage(params.url, ctx.config, left(), ctx.robots);
    signs = scrapeWithSigns(page, opts);
  } catch (err) {
    if (!(err instanceof WebcapError) || !REFUSED_OVER_HTTP.has(err.code)) throw err;
    return rendered(params, opts, ctx, left, { mode, path: 'browser', reason: `plain HTTP was refused (${err.code})` }, () => { throw err; });
  }
  const overHttp = signs.content;
  const fallback = (why: string) => async () => finish(overHttp, { mode, path: 'http', reason: `${why}, but the browser is unavailable` }, why);
  if (signs.renderReason) return rendered(params, opts, ctx, left, { mode, path: 'browser', reason: signs.renderReason }, fallback(signs.renderReason));
  if (known && known.compared >= LEARN_PAGES) return finish(overHttp, { mode, path: 'http', reason: `static page; domain memory: ${host} reads the same without rendering (${known.compared} pages compared)` });

  // Still learning this domain: render too, compare, remember.
  const step = `learning ${host}: page ${(known?.compared ?? 0) + 1} of ${LEARN_PAGES} read both ways`;
  const viaBrowser = await rendered(params, opts, ctx, left, { mode, path: 'browser', reason: step }, fallback(step));
  if (viaBrowser.fallbackReason) return viaBrowser;
  const lesson = learn(known, page.url, overHttp.content_text, viaBrowser.content.content_text);
  await remember(memory, host, lesson);
  if (lesson.render_needed) return finish(viaBrowser.content, { mode, path: 'browser', reason: `${step}; rendering changed the text` });
  return finish(overHttp, { mode, path: 'http', reason: `${step}; same text without rendering` });
}

async function rendered(params: Params, opts: ScrapeOptions, ctx: HostProviderContext, left: () => number, choice: RenderChoice, noBrowser: () => Promise<Loaded>): Promise<Loaded> {
  const timeout = left();
  if (timeout <= 0) throw new WebcapError('timeout', `web.scrape: ${params.url} was not read within ${params.timeout ?? ctx.config.capabilities.browser.default_timeout_ms} ms`, { timeout_ms: params.timeout });
  let r;
  try {
    // `timeout` bounds loading the page; starting the sidecar and Chromium comes on top.
    r = await ctx.sidecar('web.scrape', { url: params.url, timeout }, timeout + BROWSER_START_MS);
  } catch (err) {
    if (!(err instanceof WebcapError) || !NO_BROWSER.has(err.code)) throw err;
    const reason = `${err.code}: ${ctx.redactor.redactString(err.message)}`;
    ctx.log.warn({ url: params.url, reason }, 'web.scrape: browser unavailable, reading over plain HTTP');
    if (left() <= 0) throw new WebcapError('timeout', `web.scrape: ${params.url} was not read in time (the browser failed first: ${err.code})`, { timeout_ms: params.timeout });
    const loaded = await noBrowser();
    loaded.content.metadata.render_fallback = reason;
    return { ...loaded, fallbackReason: reason };
  }
  const page: FetchedPage = { url: r.url as string, status: (r.status as number | null) ?? null, headers: (r.headers as Record<string, string>) ?? {}, html: r.html as string, rendered: true };
  const content = scrapePage(page, opts);
  // The cookie popup the browser refused before reading the page (sidecar/tools/scrape.ts).
  if (r.consent) content.metadata.consent_banner = r.consent;
  return finish(content, choice);
}

function finish(content: ScrapedContent, choice: RenderChoice, fallbackReason?: string): Loaded {
  content.render = choice;
  return { content, fallbackReason };
}
