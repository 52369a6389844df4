// Which path reads the page. "never": plain HTTP. "always": Chromium (plain
// HTTP only if no browser can run). "auto" (default): plain HTTP first, through
// the same network rules on every hop (http-fetch.ts); when that reading holds
// the article, no browser. Chromium only when the page needs it (the served
// HTML is an app shell or has little readable text, or the domain is known to
// need it, render-memory.ts), and then the better of the two readings is kept
// by a stated rule; a render that fails keeps the HTTP reading.
import { WebcapError } from '../../manifests/errors.js';
import type { HostProviderContext } from '../providers/types.js';
import { fetchPage } from './http-fetch.js';
import { narrowedOf } from '../policies/narrowed.js';
import { scrapePage, scrapeWithSigns } from './pipeline.js';
import { THIN_ARTICLE_WORDS } from './app-shell.js';
import { betterReading } from './better-reading.js';
import { learn, recall, remember, type MemoryStore } from './render-memory.js';
import type { FetchedPage, ScrapedContent, ScrapeOptions } from './types.js';

export type RenderMode = 'auto' | 'always' | 'never';
interface RenderChoice { mode: RenderMode; path: 'http' | 'browser'; reason: string }
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
    const page = await fetchPage(params.url, ctx.config, left(), ctx.robots, narrowedOf(ctx.call));
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

  // Plain HTTP first, always: its reading is the floor the browser must beat.
  const host = new URL(params.url).hostname;
  const known = await recall(memory, host);
  let page: FetchedPage;
  let signs: ReturnType<typeof scrapeWithSigns>;
  try {
    page = await fetchPage(params.url, ctx.config, left(), ctx.robots, narrowedOf(ctx.call));
    signs = scrapeWithSigns(page, opts);
  } catch (err) {
    if (!(err instanceof WebcapError) || !REFUSED_OVER_HTTP.has(err.code)) throw err;
    return rendered(params, opts, ctx, left, { mode, path: 'browser', reason: `plain HTTP was refused (${err.code})` }, () => { throw err; });
  }
  const overHttp = signs.content;
  const why = signs.renderReason ?? (known?.render_needed ? `domain memory: ${host} needs rendering (${known.evidence ?? 'learned earlier'})` : undefined);
  if (!why) return finish(overHttp, { mode, path: 'http', reason: `static page: the HTTP answer holds the article (${overHttp.word_count} words, no app-shell signs); not rendered` });

  // Render, then keep the better of the two readings (better-reading.ts); a failed render keeps the HTTP one.
  let viaBrowser: Loaded;
  try {
    viaBrowser = await rendered(params, opts, ctx, left, { mode, path: 'browser', reason: why }, async (reason) => { throw new WebcapError('browser_crashed', reason.replace(/^[a-z_]+: /, '')); });
  } catch (err) {
    if (!(err instanceof WebcapError)) throw err;
    const failed = `${err.code}: ${ctx.redactor.redactString(err.message)}`;
    ctx.log.warn({ url: params.url, reason: failed }, 'web.scrape: the render failed, keeping the HTTP reading');
    overHttp.metadata.render_fallback = failed;
    return finish(overHttp, { mode, path: 'http', reason: `${why}; the render failed (${err.code}), kept the HTTP reading` }, failed);
  }
  const pick = betterReading(overHttp, viaBrowser.content);
  // Only a render that won with an article's worth of text teaches the domain to render: a lost one
  // (an error page) or a thin one (a stub both ways) says nothing of the domain's other pages.
  if (pick.keep === 'browser') {
    if (viaBrowser.content.word_count >= THIN_ARTICLE_WORDS) await remember(memory, host, learn(known, page.url, overHttp.content_text, viaBrowser.content.content_text));
    return finish(viaBrowser.content, { mode, path: 'browser', reason: `${why}; ${pick.why}` });
  }
  return finish(overHttp, { mode, path: 'http', reason: `${why}; ${pick.why}` });
}

async function rendered(params: Params, opts: ScrapeOptions, ctx: HostProviderContext, left: () => number, choice: RenderChoice, noBrowser: (reason: string) => Promise<Loaded>): Promise<Loaded> {
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
    const loaded = await noBrowser(reason);
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
