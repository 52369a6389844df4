// Pure rules of the effect gate (effect-gate.ts), kept apart so they are unit
// tested without a browser.

// RFC 9110 §9.2.1: GET, HEAD, OPTIONS and TRACE are safe (read-only by
// definition). Everything else, custom methods included, may change state.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Capabilities that dispatch input or start navigations: after one of these
 * the page's handlers may still be sending what the action set off, so the
 * action waits INPUT_GRACE_MS before it reports (reading capabilities do not).
 */
export const INPUT_CAPABILITIES = new Set([
  'web.click', 'web.fill', 'web.fill_form', 'web.keypress', 'web.type', 'web.select', 'web.hover',
  'web.scroll', 'web.upload', 'web.evaluate', 'web.consent.handle', 'web.navigate', 'web.open', 'web.tabs',
]);

/** Capabilities that make their own context, so their requests carry a session name the action does not know yet. */
export const NEW_CONTEXT_CAPABILITIES = new Set(['web.open', 'web.scrape']);

/**
 * How long a finished input action waits, after a round trip that lets the
 * page's handlers and zero-delay timers run, for the requests they started to
 * reach the route (a beacon arrives ~1 ms after the click returns). A request
 * later than this is still held and decided; only its refusal is reported in
 * the next call's network_blocked entry instead of failing this call.
 */
export const INPUT_GRACE_MS = 15;
/** The page round trip is bounded: a busy or navigating page must not hold the call. */
export const FLUSH_CAP_MS = 100;

/**
 * A request the page's CDP watch saw leave (redirect-hops.ts) reaches the
 * route a few ms later; the action waits for its decision, but at most this
 * long (a request the page aborted in between never reaches the route).
 */
export const ANNOUNCE_CAP_MS = 500;

/** Requests started up to this long after an action ended still count as caused by it (asked, not refused outright). */
export const SETTLE_MS = 1000;

// Keys that move focus or the caret without typing anything.
const NON_TYPING = /^(Tab|Shift|Control|Alt|Meta|Escape|Arrow(Up|Down|Left|Right)|Home|End|PageUp|PageDown|F\d{1,2}|CapsLock|NumLock|ScrollLock|Pause|ContextMenu)$/;

/**
 * Whether pressing `key` (Playwright's key syntax: "a", "Shift+A", "Control+v",
 * "Backspace") types into, edits or pastes into the focused field. Used to ask
 * before a key lands in a password field; a modifier chord that only moves
 * focus (Shift+Tab) does not type.
 */
export function typesIntoField(key: string): boolean {
  if (key.length === 1) return true;            // a character, "+" included
  const last = key.split('+').filter(Boolean).at(-1) ?? key;
  return !NON_TYPING.test(last);
}

/** "https://a.test:8443/x?y" → "https://a.test:8443"; undefined for opaque or broken URLs. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** "https://a.test:8443/x" → "a.test:8443"; undefined for no URL or a broken one. */
export function hostOf(url: string | undefined): string | undefined {
  try { return url === undefined ? undefined : new URL(url).host; } catch { return undefined; }
}

/** A request's identity across the CDP watch and the route: method and URL without its fragment. */
export function requestKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.split('#')[0]}`;
}
