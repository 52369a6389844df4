// web.scrape, the browser half: render the URL in a scratch context (so
// JavaScript runs and the agent's sessions are left alone), let the requests
// a script starts around load finish, and hand back the DOM as HTML. Readability
// and Markdown run in the host (host/scrape/), the same pipeline its plain-HTTP
// fallback uses, so both paths read a page the same way.
import { WebcapError } from '../../manifests/errors.js';
import { within } from '../deadline.js';
import { mapError } from '../errors.js';
import { guardRefusal } from '../guard-refusal.js';
import { trackRequests } from '../settle.js';
import { defineTool } from '../tool.js';

// Script-written pages fetch their text around `load`; long-polling pages never stop, hence the cap.
const SETTLE_MS = 3000;
// Requests that can still change the text: data for the app, more script. Not images or fonts.
const TEXT_BEARING = new Set(['fetch', 'xhr', 'script', 'document']);
// What the host's pipeline reads from the response besides the body (language, challenge markers).
const HEADERS = ['content-type', 'content-language', 'cf-mitigated', 'server', 'retry-after'];

export const scrape = defineTool('web.scrape', async (ctx, params) => {
  const url = params.url as string;
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
    await inFlight.settle(Math.min(SETTLE_MS, left()));
    // Untimed calls: a page looping forever after load must fail the call with 'timeout', so the scratch context is closed below.
    const all = response ? await within(response.allHeaders(), left(), `web.scrape ${url}`) : {};
    const headers = Object.fromEntries(HEADERS.filter((h) => all[h] !== undefined).map((h) => [h, all[h]]));
    return { url: page.url(), status: response?.status() ?? null, headers, html: await within(page.content(), left(), `web.scrape ${url}`) };
  } catch (err) {
    throw mapError(err, { url, blocked: ctx.lastBlocked(scratch.name) });
  } finally {
    await scratch.close();
  }
});
