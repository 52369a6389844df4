// Functions run in the page through the server's browser_evaluate tool, for
// the capabilities Playwright MCP has no tool of its own for. Each is built as
// source text with its arguments embedded as JSON (never spliced as code).

const arg = (value: unknown) => JSON.stringify(value);

/** URL, title and the main document's HTTP status (Navigation Timing's responseStatus). */
export const PAGE_INFO = `() => ({ url: location.href, title: document.title, status: performance.getEntriesByType('navigation')[0]?.responseStatus || null })`;

/** web.extract's contract: a field selector ending in a bare attribute test yields that attribute (URLs absolute), else trimmed text; missing → null. */
export function extractScript(selector: string, schema: Record<string, string>, limit: number): string {
  return `() => {
    const spec = ${arg({ selector, schema, limit })};
    const urlAttrs = ['href', 'src', 'action', 'poster', 'data-href', 'data-src'];
    const text = (el) => (el.textContent || '').replace(/\\s+/g, ' ').trim();
    const field = (item, sel) => {
      const el = item.querySelector(sel) || (item.matches(sel) ? item : null);
      if (!el) return null;
      const attr = (/\\[\\s*([\\w:-]+)\\s*\\]\\s*$/.exec(sel) || [])[1];
      if (!attr) return text(el);
      const raw = el.getAttribute(attr);
      if (raw === null || !urlAttrs.includes(attr)) return raw;
      try { return new URL(raw, document.baseURI).href; } catch { return raw; }
    };
    const keys = Object.keys(spec.schema);
    return Array.from(document.querySelectorAll(spec.selector)).slice(0, spec.limit)
      .map((item) => keys.length ? Object.fromEntries(keys.map((k) => [k, field(item, spec.schema[k])])) : { text: text(item) });
  }`;
}

/** Polls for a selector to be attached and visible; resolves false at the deadline. */
export function waitForSelectorScript(selector: string, timeoutMs: number): string {
  return `() => new Promise((resolve) => {
    const spec = ${arg({ selector, timeoutMs })};
    const end = Date.now() + spec.timeoutMs;
    const tick = () => {
      const el = document.querySelector(spec.selector);
      if (el && el.getClientRects().length) return resolve(true);
      if (Date.now() > end) return resolve(false);
      setTimeout(tick, 50);
    };
    tick();
  })`;
}

export function scrollScript(params: { top?: boolean; bottom?: boolean; by?: number; selector?: string }): string {
  return `() => {
    const p = ${arg(params)};
    if (p.selector) {
      const el = document.querySelector(p.selector);
      if (!el) return { missing: true };
      el.scrollIntoView({ block: 'center' });
    } else if (p.top) window.scrollTo(0, 0);
    else if (p.bottom) window.scrollTo(0, document.documentElement.scrollHeight);
    else window.scrollBy(0, p.by || window.innerHeight);
    return { scroll_y: window.scrollY, scroll_height: document.documentElement.scrollHeight };
  }`;
}

/** A site profile's consent buttons: waits up to waitMs for the banner, presses `prefer` if shown, else the other. */
export function profileConsentScript(consent: { banner?: string; accept?: string; reject?: string }, prefer: 'accept' | 'reject', waitMs: number): string {
  return `() => new Promise((resolve) => {
    const c = ${arg({ ...consent, prefer, waitMs })};
    const shown = (sel) => { const el = sel && document.querySelector(sel); return el && el.getClientRects().length ? el : null; };
    const end = Date.now() + c.waitMs;
    const tick = () => {
      const banner = c.banner ? shown(c.banner) : true;
      const buttons = { accept: shown(c.accept), reject: shown(c.reject) };
      const choice = buttons[c.prefer] ? c.prefer : (buttons.accept ? 'accept' : buttons.reject ? 'reject' : null);
      if (banner && choice) { buttons[choice].click(); return resolve({ found: true, choice, button: c[choice] }); }
      if (Date.now() > end) return resolve({ found: false });
      setTimeout(tick, 50);
    };
    tick();
  })`;
}

/**
 * Whether the field a fill targets (a CSS selector) or keys land in (the
 * focused element: selector null) is a password or payment field, and what it
 * holds, so the host can learn the value as a secret. Anything it cannot read
 * (a snapshot ref, no such element, an exception) answers "unknown", which the
 * caller treats as secret: typed text is secret until its field is known not to be.
 */
export function secretFieldScript(selector: string | null): string {
  return `() => {
    try {
      const sel = ${arg(selector)};
      const el = sel === null ? document.activeElement : document.querySelector(sel);
      if (!el) return { kind: 'unknown' };
      if (sel === null && (el === document.body || el === document.documentElement)) return { kind: 'plain' };
      const attr = (n) => Element.prototype.getAttribute.call(el, n) || '';
      const payment = /^cc-|card|cvc|cvv|iban|expir/i;
      const kind = attr('type').toLowerCase() === 'password' ? 'password'
        : [attr('autocomplete'), attr('name'), attr('id')].some((h) => h && payment.test(h)) ? 'payment' : 'plain';
      return kind === 'plain' ? { kind } : { kind, value: typeof el.value === 'string' ? el.value : '' };
    } catch { return { kind: 'unknown' }; }
  }`;
}
