// What kind of field or button an element is, read in the page. This decides
// whether an action is sensitive, so it looks at the DOM, never at page text
// that could try to talk us out of asking.
import type { Locator, Page } from 'playwright';

export interface FieldInfo { tag: string; type: string; kind: 'password' | 'payment' | 'plain' }

/** Hints (autocomplete, name, id) of a payment field; also used to keep its value out of snapshots. */
export const PAYMENT = /^cc-|card|cvc|cvv|iban|expir/i;

// The in-page checks are plain functions without closures, so they run both
// through a locator and inside the one-round-trip fast path below.
function fieldInPage(el: Element, paymentSource: string): FieldInfo {
  const payment = new RegExp(paymentSource, 'i');
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  const hints = [el.getAttribute('autocomplete'), el.getAttribute('name'), el.id].filter(Boolean).join(' ');
  const kind = type === 'password' ? 'password' : payment.test(hints) ? 'payment' : 'plain';
  return { tag, type, kind };
}

function submitInPage(el: Element, enter: boolean): { sensitive: boolean } {
  const e = el as HTMLElement & { form?: HTMLFormElement | null; type?: string };
  const form = e.form ?? e.closest('form');
  if (!form) return { sensitive: false };
  const tag = e.tagName.toLowerCase();
  // Enter in any field submits its form; a click only does on a submit control.
  const submits = enter || (tag === 'input' || tag === 'button' ? (e.type ?? 'submit') === 'submit' : false);
  if (!submits) return { sensitive: false };
  const post = (form.getAttribute('method') ?? 'get').toLowerCase() === 'post';
  const secret = form.querySelector('input[type=password]') !== null;
  return { sensitive: post || secret };
}

export async function describeField(target: Locator, timeout?: number): Promise<FieldInfo> {
  return target.evaluate(fieldInPage, PAYMENT.source, { timeout });
}

/** A click or Enter that submits a form is sensitive when the form POSTs or carries a password. */
export async function describeSubmit(target: Locator, byEnter = false, timeout?: number): Promise<{ sensitive: boolean }> {
  // Without a timeout (Enter on whatever has focus) an absent element means "nothing to submit".
  if (timeout === undefined && (await target.count()) === 0) return { sensitive: false };
  return target.evaluate(submitInPage, byEnter, { timeout });
}

export const describeFieldByCss = (page: Page, css: string) => inspectByCss(page, css, fieldInPage, PAYMENT.source);
export const describeSubmitByCss = (page: Page, css: string) => inspectByCss(page, css, submitInPage, false);

/**
 * One page.evaluate instead of a locator's ~10 ms of round trips. Only for a
 * selector document.querySelector accepts, on a page without open shadow
 * roots, where it finds the very element Playwright's engine picks (the first
 * match in document order); otherwise (and when nothing matches yet, so the
 * caller can wait) undefined, and the caller takes the locator path.
 */
async function inspectByCss<A, R>(page: Page, css: string, check: (el: Element, arg: A) => R, arg: A): Promise<R | undefined> {
  const expression = `(() => {
    let el;
    try { el = document.querySelector(${JSON.stringify(css)}); } catch { return { miss: true }; }
    if (!el) return { miss: true };
    const walk = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
    for (let n = walk.currentNode; n; n = walk.nextNode()) if (n.shadowRoot) return { miss: true };
    return { value: (${check.toString()})(el, ${JSON.stringify(arg)}) };
  })()`;
  const r = await page.evaluate(expression).catch(() => ({ miss: true })) as { miss?: true; value?: R };
  return r.miss ? undefined : r.value;
}
