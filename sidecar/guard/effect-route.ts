// What the effect gate needs to know about a request, read from Playwright's
// Request, and the header by which the route layer tells the guard proxy that
// a state-changing request was already let through (so it is asked once).
import type { Request } from 'playwright';
import type { RequestFacts } from './effect-gate.js';

/** Set by the route layer, removed by the proxy before anything is forwarded: the site never sees it. */
export const EFFECT_PASS_HEADER = 'x-webcap-effect-pass';

export function effectFacts(req: Request): RequestFacts {
  let topLevel = false;
  let pageUrl = '';
  try {
    const frame = req.frame();
    topLevel = req.isNavigationRequest() && frame.parentFrame() === null;
    pageUrl = frame.page().url();
  } catch {
    // No frame: a worker's request (not a navigation), or a popup's first
    // navigation (issued before its page exists): that one is top-level.
    topLevel = req.isNavigationRequest();
  }
  return { method: req.method(), url: req.url(), resource: req.resourceType(), topLevel, pageUrl };
}

/**
 * The pass names the host it was given for: a 307/308 redirect re-sends the
 * body (and, through Playwright, the header) to another host, which is a new
 * destination the user did not approve.
 */
export function passesEffect(pass: string | string[] | undefined, secret: string, url: URL): boolean {
  return typeof pass === 'string' && pass === `${secret} ${url.host}`;
}
