// A top-level navigation whose redirect hops the page's own CDP watch cannot
// see (redirect-hops.ts: a popup's first navigation starts before its page
// exists; a browser without CDP) is fetched here, one hop at a time, with
// route.fetch({ maxRedirects: 0 }) through the context's proxy (the guard), and
// each Location is checked before it is requested.
//
// Without a redirect the browser gets the response it would have had. After
// one, the document must still come from the final URL's own origin (serving
// its bytes under the first URL would run them in the wrong origin), so the
// browser is sent there with a 302 (303 after a re-sent body, so it is not
// sent a second time) and fetches that last URL again itself. That second GET
// is the price of checking every hop when no CDP watch is there.
import type { APIResponse, Route } from 'playwright';

/** Chromium's own limit (net::ERR_TOO_MANY_REDIRECTS). */
const MAX_HOPS = 20;
/** Per hop: the action that caused the navigation waits for the walk, so a server that never answers must not hold it for long. */
const HOP_TIMEOUT_MS = 15_000;

interface WalkHop {
  url: string;
  method: string;
  from: string;
}

/** Resolves true to request the hop; false to stop (the caller has recorded why). */
type WalkCheck = (hop: WalkHop) => Promise<boolean>;

/** RFC 9110 §15.4: 301/302 turn a POST into a GET (as browsers do), 303 anything but HEAD; 307/308 keep method and body. */
export function methodAfter(status: number, method: string): string {
  if (status === 307 || status === 308) return method;
  if (status === 303) return method === 'HEAD' ? 'HEAD' : 'GET';
  return method === 'POST' ? 'GET' : method;
}

export function redirectTarget(response: APIResponse, base: string): string | undefined {
  const status = response.status();
  const location = response.headers().location;
  if (status < 300 || status > 399 || status === 304 || !location) return undefined;
  try { return new URL(location, base).href; } catch { return undefined; }
}

function withoutBody(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  delete copy['content-type'];
  delete copy['content-length'];
  return copy;
}

export async function walkRedirects(route: Route, check: WalkCheck): Promise<void> {
  const first = route.request();
  let url = first.url();
  let method = first.method();
  let response: APIResponse;
  try {
    response = await route.fetch({ maxRedirects: 0, timeout: HOP_TIMEOUT_MS });
  } catch {
    // The site could not be reached or timed out. (A host the guard proxy refuses comes back as its 403
    // answer to the tunnel, recorded by the proxy; every hop after the first was checked before this.)
    await route.abort('failed').catch(() => undefined);
    return;
  }
  let hops = 0;
  for (let next = redirectTarget(response, url); next; next = redirectTarget(response, url)) {
    if (++hops > MAX_HOPS) { await route.abort('failed').catch(() => undefined); return; }
    const nextMethod = methodAfter(response.status(), method);
    if (!(await check({ url: next, method: nextMethod, from: url }).catch(() => false))) {
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    const keepsBody = nextMethod === method && method !== 'GET' && method !== 'HEAD';
    try {
      response = await route.fetch({ url: next, method: nextMethod, maxRedirects: 0, timeout: HOP_TIMEOUT_MS, ...(keepsBody ? {} : { postData: '', headers: withoutBody(first.headers()) }) });
    } catch {
      await route.abort('failed').catch(() => undefined);
      return;
    }
    url = next;
    method = nextMethod;
  }
  if (hops === 0) { await route.fulfill({ response }).catch(() => undefined); return; }
  const status = method === 'GET' || method === 'HEAD' ? 302 : 303;
  await route.fulfill({ status, headers: { location: url, 'cache-control': 'no-store' }, body: '' }).catch(() => undefined);
}
