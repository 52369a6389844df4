// Redirect hops of a page's top-level navigations, checked where they leave
// the browser. Playwright's routes see only the first request of a
// navigation: it continues every redirect hop itself (microsoft/playwright#3993).
// Chromium's Fetch domain does pause hops ("redirect responses and subsequent
// requests are reported similarly to regular requests"), so a CDP session of
// our own on each page pauses the requests that can be navigations or carry a
// body, and asks `check` about every hop of them before it is sent: robots.txt
// for a main-frame hop, consent for a body a 307/308 re-sends to another host
// inside an https tunnel, where the guard proxy cannot see it. It sees each
// request a few ms before Playwright's route does, so it also tells the
// effect gate one is coming (`seen`): the action that caused it waits for it. Playwright's interception keeps
// working beside it (each session's interceptor wraps the page's loader).
//
// The session must be listening before a navigation starts: one enabled while
// the first request is already held does not see that request's hops. So a
// page is "watched" only once Fetch.enable has answered; the route layer
// walks the redirects itself (redirect-walk.ts) for a navigation of a page
// that is not watched yet (a popup's first one) or cannot be (no CDP).
import type { BrowserContext, CDPSession, Page } from 'playwright';

export interface Hop {
  url: string;
  method: string;
  /** The URL that answered with the redirect (undefined when Chromium did not say). */
  from?: string;
  /** A hop of the main frame's navigation (robots.txt applies). */
  topLevel: boolean;
  /** CDP's resource type, lower-cased ("document", "fetch", "xhr", "ping", "other"). */
  resource: string;
  page: Page;
}

/** Resolves true to let the hop go; false fails it as blocked by client. */
type HopCheck = (hop: Hop) => Promise<boolean>;

/** Told of every other paused request (not a hop) before it goes on to the route. */
type RequestSeen = (req: { url: string; method: string; topLevel: boolean }) => void;

interface PausedRequest {
  requestId: string;
  request: { url: string; method: string };
  frameId: string;
  resourceType: string;
  redirectedRequestId?: string;
}

/** Navigations, and what a page's script can send a body with (fetch, XHR, beacon; "Other" for the rest). */
const PAUSED_TYPES = ['Document', 'XHR', 'Fetch', 'Ping', 'Other'] as const;

const starting = new WeakMap<Page, Promise<boolean>>();
const watched = new WeakSet<Page>();
/** The watch's own CDP session of each page, once it listens. */
const sessions = new WeakMap<Page, CDPSession>();

/**
 * A round trip through the page on the watch's own CDP session, once its
 * handlers and zero-delay timers have run. The renderer reports a request it
 * starts (Network.requestWillBeSent) and a navigation it asks for on this
 * session in order, so when this answers, every request the action set off so
 * far has been announced: no fixed wait is needed. Undefined until the watch runs.
 */
function orderedFlush(page: Page): (() => Promise<unknown>) | undefined {
  const session = sessions.get(page);
  return session && (() => session.send('Runtime.evaluate', { expression: FLUSH, awaitPromise: true }));
}

// The zero-delay timer of a flush is the one captured before the page's scripts (pristine.ts): a page that
// makes its own setTimeout (or Promise) call back at once would make the flush answer before the timers its
// handlers armed, and one whose setTimeout never calls back would hold it (and the title read after a load)
// until the cap or the call's timeout. Without the capture (no init script ran there) the page's own timer.
const FLUSH = `(typeof __webcapPristine === 'undefined' ? new Promise((r) => setTimeout(r, 0)) : __webcapPristine.tick())`;
const TITLE_FLUSH = `(typeof __webcapPristine === 'undefined'
  ? new Promise((r) => setTimeout(() => { let t; try { t = document.title; } catch {} r(t); }, 0))
  : __webcapPristine.tickRead(() => document.title))`;

/**
 * The round trip the effect gate waits for after an input action: the ordered
 * one on the watch's session, else a zero-delay timer through Playwright
 * (then a short grace stands in for the order: effect-gate.ts).
 */
export function pageFlush(page: Page): { run: () => Promise<unknown>; ordered: boolean } {
  const ordered = orderedFlush(page);
  return ordered ? { run: ordered, ordered: true } : { run: () => page.evaluate(FLUSH), ordered: false };
}

/** The watch's own CDP session of the page, once it listens (undefined before, or without CDP). */
export function watchSession(page: Page): CDPSession | undefined {
  return sessions.get(page);
}

/**
 * The ordered flush that also reads the page's title, in one round trip: after
 * a navigation the answer shows the title, and the effect gate waits for this
 * flush anyway (a separate title read would wait for the same renderer, after
 * the load's first frame, once more). Undefined until the watch runs. Page
 * text, as documentTitle's.
 */
export function flushReadingTitle(page: Page): Promise<string> | undefined {
  const session = sessions.get(page);
  return session && titleFlush(session);
}

/** flushReadingTitle on a watch session already in hand (load-flush.ts sends it at the load event). */
export function titleFlush(session: CDPSession): Promise<string> {
  return session.send('Runtime.evaluate', { expression: TITLE_FLUSH, awaitPromise: true, returnByValue: true })
    .then(({ result }: { result: { value?: unknown } }) => (typeof result.value === 'string' ? result.value : ''));
}

/**
 * The page's title, on the watch's session when there is one: a plain
 * Runtime.evaluate, where Playwright's page.title() first injects its utility
 * script into the new document (a compile of some milliseconds right after a
 * navigation). Page text either way: a page may make it say anything.
 */
export async function documentTitle(page: Page): Promise<string> {
  const session = sessions.get(page);
  if (!session) return page.title();
  const { result } = await session.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }) as { result: { value?: unknown } };
  return typeof result.value === 'string' ? result.value : '';
}

/**
 * Evaluates in the page's main world on the watch's own session, the value
 * copied out by the browser itself (returnByValue): Playwright's page.evaluate
 * serialises the result with JavaScript in the page's world, which a page can
 * break by redefining what that code uses. Undefined when there is no watch.
 */
export function watchEvaluate(page: Page): ((expression: string) => Promise<unknown>) | undefined {
  const session = sessions.get(page);
  return session && (async (expression) => {
    const r = await session.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }) as { result: { value?: unknown }; exceptionDetails?: { text?: string } };
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.text ?? 'the expression threw');
    return r.result.value;
  });
}

/**
 * An expression's value from the page's main world: on the watch's session
 * when there is one (one plain Runtime.evaluate, the value copied out by the
 * browser), else, or when that fails (a document between two navigations),
 * through Playwright's page.evaluate as before. Only for expressions that may
 * run twice: a failed first try can have run.
 */
export async function evaluateInPage(page: Page, expression: string): Promise<unknown> {
  const watched = watchEvaluate(page);
  if (watched) {
    try { return await watched(expression); } catch { /* Playwright's path below waits for the new document */ }
  }
  return page.evaluate(expression);
}

/** Whether the page's hops are checked from now on (false until the session listens). */
export function hopsWatched(page: Page): boolean {
  return watched.has(page);
}

/** Waits until the page's watch has started (or failed): call before a new page's first navigation. */
export async function hopsReady(page: Page): Promise<void> {
  await starting.get(page);
}

/** Starts watching every page of `context`, present and future. */
export function watchRedirectHops(context: BrowserContext, check: HopCheck, seen: RequestSeen): void {
  for (const page of context.pages()) watchPage(context, page, check, seen);
  context.on('page', (page) => watchPage(context, page, check, seen));
}

function watchPage(context: BrowserContext, page: Page, check: HopCheck, seen: RequestSeen): void {
  if (starting.has(page)) return;
  starting.set(page, listen(context, page, check, seen).then(() => { watched.add(page); return true; }, () => false));
}

async function listen(context: BrowserContext, page: Page, check: HopCheck, seen: RequestSeen): Promise<void> {
  const session: CDPSession = await context.newCDPSession(page);
  // The main frame's id is the page target's and stays the same across navigations.
  const { frameTree } = await session.send('Page.getFrameTree');
  const mainFrame = frameTree.frame.id;
  const urls = new Map<string, string>();       // requestId → URL, to name where a hop came from
  session.on('Fetch.requestPaused', (e: PausedRequest) => void decide(e));
  // A navigation the page asks for (form.submit(), location.href, a link) is known here before its
  // request exists: under load that can be longer than an action's own wait, so say it is coming now.
  session.on('Page.frameRequestedNavigation', (e: { frameId: string; url: string; reason: string }) => {
    seen({ url: e.url, method: e.reason === 'formSubmissionPost' ? 'POST' : 'GET', topLevel: e.frameId === mainFrame });
  });
  // A popup's first navigation is top-level in a page that does not exist yet: its opener says so first.
  session.on('Page.windowOpen', (e: { url: string }) => seen({ url: e.url, method: 'GET', topLevel: true }));
  // The renderer says a request starts before it leaves; orderedFlush() relies on this arriving in order.
  session.on('Network.requestWillBeSent', (e: { request: { url: string; method: string }; type?: string; frameId?: string; redirectResponse?: unknown }) => {
    if (!e.redirectResponse) seen({ url: e.request.url, method: e.request.method, topLevel: e.type === 'Document' && e.frameId === mainFrame });
  });

  async function decide(e: PausedRequest): Promise<void> {
    const hop = e.redirectedRequestId !== undefined;
    const from = e.redirectedRequestId === undefined ? undefined : urls.get(e.redirectedRequestId);
    urls.set(e.requestId, e.request.url);
    if (urls.size > 100) urls.delete(urls.keys().next().value as string);
    const topLevel = e.resourceType === 'Document' && e.frameId === mainFrame;
    // Not a hop: the route decides it next; say it is coming, so the action waits for that decision.
    if (!hop) seen({ url: e.request.url, method: e.request.method, topLevel });
    // Fail closed: a check that throws refuses the hop.
    const go = !hop || await check({ url: e.request.url, method: e.request.method, from, page, topLevel, resource: e.resourceType.toLowerCase() }).catch(() => false);
    await (go
      ? session.send('Fetch.continueRequest', { requestId: e.requestId })
      : session.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' })
    ).catch(() => undefined); // the page closed meanwhile
  }

  // Sent together, in this order (the browser handles a session's commands in order), and waited for together:
  // one round trip on every new page instead of three one after another.
  await Promise.all([
    session.send('Page.enable'),
    session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
    // Images, scripts, styles and fonts are always GETs without a body: not paused, so they cost nothing.
    session.send('Fetch.enable', { patterns: PAUSED_TYPES.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' as const })) }),
  ]);
  sessions.set(page, session);
}
