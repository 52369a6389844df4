// The picture a person approves from (host/console): the page as it is when
// the question is asked, the target element outlined, password and payment
// fields masked (never their values), and what a form around the target
// would send (field names only). Best effort and bounded: a page that cannot
// be captured in time still gets its question, without a picture.
//
// The capture goes through CDP (Runtime.evaluate, Page.captureScreenshot)
// rather than page.screenshot(): a question is often asked while the page's
// own navigation is held at the network guard, and Playwright's screenshot
// waits for that navigation; the document on screen is still there to show.
import type { Page } from 'playwright';
import type { Evidence } from '../manifests/wire.js';
import { PAYMENT } from './tools/field-kind.js';

const TARGET_MARK = 'data-webcap-evidence';
const CAPTURE_MS = 3000;

// Runs in the page: masks password/payment fields and outlines the target with one style element; returns a cleanup.
const DRESS = `(() => {
  const payment = new RegExp(${JSON.stringify(PAYMENT.source)}, 'i');
  const masked = [];
  for (const el of document.querySelectorAll('input, textarea')) {
    const hinted = ['autocomplete', 'name', 'id'].some((a) => payment.test(el.getAttribute(a) || ''));
    if ((el.getAttribute('type') || '').toLowerCase() === 'password' || hinted) { el.setAttribute('data-webcap-mask', ''); masked.push(el); }
  }
  const style = document.createElement('style');
  style.id = 'webcap-evidence-style';
  style.textContent = '[data-webcap-mask] { color: transparent !important; background: #222 !important; text-shadow: none !important; caret-color: transparent !important; }'
    + ' [${TARGET_MARK}] { outline: 4px solid #d40000 !important; outline-offset: 2px !important; }';
  (document.head || document.documentElement).append(style);
  return masked.length;
})()`;
const UNDRESS = `(() => {
  document.getElementById('webcap-evidence-style')?.remove();
  for (const el of document.querySelectorAll('[data-webcap-mask], [${TARGET_MARK}]')) { el.removeAttribute('data-webcap-mask'); el.removeAttribute('${TARGET_MARK}'); }
})()`;

export async function captureEvidence(page: Page, selector: string | undefined): Promise<Evidence> {
  const url = page.url();
  const cdp = await bounded(page.context().newCDPSession(page), 1000, undefined);
  const evaluate = async (expression: string) => {
    const r = await cdp?.send('Runtime.evaluate', { expression, returnByValue: true });
    if (r?.exceptionDetails) throw new Error(r.exceptionDetails.text);
    return r?.result.value as unknown;
  };
  const title = String(await bounded(evaluate('document.title'), 1000, '') ?? '');
  let described: Pick<Evidence, 'element' | 'form'> = {};
  if (selector) {
    // CSS through CDP first (works while a navigation is held); Playwright's own engines (role=, text=) otherwise.
    const viaCdp = await bounded(evaluate(`(${describeInPage.toString()})(${JSON.stringify(selector)}, ${JSON.stringify(TARGET_MARK)})`), 700, undefined);
    described = (viaCdp as typeof described | null | undefined)
      ?? await bounded(page.locator(selector).first().evaluate(describeInPage, TARGET_MARK, { timeout: 500 }), 700, {})
      ?? {};
  }
  let png: string | undefined;
  if (cdp) {
    try {
      // A picture that could not be masked is never taken (a held navigation can leave no document to dress).
      const dressed = await bounded(evaluate(DRESS), 1000, undefined);
      if (typeof dressed !== 'number') throw new Error('the page could not be masked');
      const shot = await bounded(cdp.send('Page.captureScreenshot', { format: 'png' }), CAPTURE_MS, undefined);
      png = shot?.data;
    } catch {
      png = undefined;
    } finally {
      void evaluate(UNDRESS).catch(() => undefined).finally(() => cdp.detach().catch(() => undefined));
    }
  }
  return { url, title, ...(png ? { png } : {}), ...described };
}

/** Marks the element (by CSS selector, or given) and describes it and its form; null when there is none. Runs in the page. */
function describeInPage(target: Element | string, mark: string): Pick<Evidence, 'element' | 'form'> | null {
  let el: Element | null = null;
  try { el = typeof target === 'string' ? document.querySelector(target) : target; } catch { el = null; }
  if (!el) return null;
  el.setAttribute(mark, '');
  const field = el as HTMLInputElement;
  const form = field.form ?? el.closest('form');
  const label = (el.getAttribute('aria-label') ?? el.textContent ?? field.value ?? '').trim().slice(0, 80);
  const name = el.getAttribute('name') ?? el.id ?? '';
  return {
    element: `${el.tagName.toLowerCase()}${name ? ` ${name}` : ''}${label ? ` "${label}"` : ''}`,
    form: form ? {
      method: (form.getAttribute('method') ?? 'get').toUpperCase(),
      action: form.getAttribute('action') === null ? location.href : form.action,
      fields: [...form.elements].map((c) => c.getAttribute('name') ?? '').filter((n) => n !== ''),
    } : undefined,
  };
}

/** A page mid-navigation may never answer: each step gets a bound, then the evidence goes without it. */
function bounded<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  work.catch(() => undefined);
  return Promise.race([work.catch(() => fallback), new Promise<F>((r) => setTimeout(() => r(fallback), ms))]);
}
