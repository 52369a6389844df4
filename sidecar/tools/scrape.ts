// web.scrape, the browser half: render the URL in a scratch context (so
// JavaScript runs and the agent's sessions are left alone), let the requests
// a script starts around load finish, and hand back the DOM as HTML. Readability
// and Markdown run in the host (host/scrape/), the same pipeline its plain-HTTP
// fallback uses, so both paths read a page the same way.
import { WebcapError } from '../../manifests/errors.js';
import { startLibrary, stopLibrary, type LibraryRun } from '../consent/library.js';
import { within } from '../deadline.js';
import { mapError } from '../errors.js';
import { guardRefusal } from '../guard/guard-refusal.js';
import { trackRequests } from '../settle.js';
import { defineTool } from '../tool.js';

// Script-written pages fetch their text around `load`; long-polling pages never stop, hence the cap.
const SETTLE_MS = 3000;
// A cookie popup the consent-rule library detected but has not shown yet gets this much longer.
const BANNER_WAIT_MS = 1000;
// The library's first look (its rules against the DOM, a popup injected just after load) takes about this long.
const LIBRARY_LOOK_MS = 800;
// Requests that can still change the text: data for the app, more script. Not images or fonts.
const TEXT_BEARING = new Set(['fetch', 'xhr', 'script', 'document']);
// What the host's pipeline reads from the response besides the body (language, challenge markers).
const HEADERS = ['content-type', 'content-language', 'cf-mitigated', 'server', 'retry-after'];

export const scrape = defineTool('web.scrape', async (ctx, params) => {
  const url = params.url;
  const timeout = params.timeout ?? ctx.init.browser.default_timeout_ms;
  const started = Date.now();
  let scratch;
  try {
    scratch = await ctx.sessions.scratch('scrape');
  } catch (err) {
    // Whatever stops the browser from starting is the host's cue to fetch without it.
    if (err instanceof WebcapError) throw err;
    throw new WebcapError('browser_crashed', `the browser could not start: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
  }
  const { page } = scratch;
  // Counted from before navigation, so requests a script starts during load are seen too.
  const inFlight = trackRequests(page, TEXT_BEARING);
  try {
    const response = await page.goto(url, { waitUntil: 'load', timeout });
    const refused = guardRefusal(response, url, ctx.lastBlocked(scratch.name));
    if (refused) throw refused;
    const left = () => timeout - (Date.now() - started);
    // @duckduckgo/autoconsent looks for a cookie popup while the page settles; one it finds is
    // refused (reject stays the default; the scratch context is thrown away anyway), so its
    // overlay text does not end up in the article.
    // Bounded: a page whose script never yields must still end in 'timeout' below, not hang here.
    const lookStarted = Date.now();
    const library = await within(startLibrary(page), Math.min(BANNER_WAIT_MS, left()), 'consent rules').catch(() => undefined);
    await inFlight.settle(Math.min(SETTLE_MS, left()));
    const consent = library ? await refuseBanner(library, left, lookStarted) : undefined;
    // Untimed calls: a page looping forever after load must fail the call with 'timeout', so the scratch context is closed below.
    const all = response ? await within(response.allHeaders(), left(), `web.scrape ${url}`) : {};
    const headers = Object.fromEntries(HEADERS.filter((h) => all[h] !== undefined).map((h) => [h, all[h]]));
    return { url: page.url(), status: response?.status() ?? null, headers, html: await within(page.content(), left(), `web.scrape ${url}`), ...(consent ? { consent } : {}) };
  } catch (err) {
    throw mapError(err, { url, blocked: ctx.lastBlocked(scratch.name) });
  } finally {
    await scratch.close();
  }
});

/** Opts out of the popup the library found (waiting briefly for one it detected); what it did, or undefined when there was none. */
async function refuseBanner(run: LibraryRun, left: () => number, lookStarted: number): Promise<{ cmp: string; action: 'optOut'; done: boolean } | undefined> {
  try {
    const until = Date.now() + Math.min(BANNER_WAIT_MS, left());
    const looking = () => run.detected.size > 0 || Date.now() - lookStarted < LIBRARY_LOOK_MS;
    while (!run.found && looking() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    if (!run.found) return undefined;
    const done = await run.act('optOut', Math.max(1, Math.min(3000, left())));
    return { cmp: run.found.cmp, action: 'optOut', done };
  } finally {
    stopLibrary(run);
  }
}
