// What kind of field or button an element is, read in the page. This decides
// whether an action is sensitive, so it looks at the DOM, never at page text
// that could try to talk us out of asking.
import type { Locator } from 'playwright';

export interface FieldInfo { tag: string; type: string; kind: 'password' | 'payment' | 'plain' }

/** Hints (autocomplete, name, id) of a payment field; also used to keep its value out of snapshots. */
export const PAYMENT = /^cc-|card|cvc|cvv|iban|expir/i;

export async function describeField(target: Locator, timeout?: number): Promise<FieldInfo> {
  return target.evaluate((el, paymentSource) => {
    const payment = new RegExp(paymentSource, 'i');
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    const hints = [el.getAttribute('autocomplete'), el.getAttribute('name'), el.id].filter(Boolean).join(' ');
    const kind = type === 'password' ? 'password' : payment.test(hints) ? 'payment' : 'plain';
    return { tag, type, kind } as const;
  }, PAYMENT.source, { timeout });
}

/** A click or Enter that submits a form is sensitive when the form POSTs or carries a password. */
export async function describeSubmit(target: Locator, byEnter = false, timeout?: number): Promise<{ sensitive: boolean }> {
  // Without a timeout (Enter on whatever has focus) an absent element means "nothing to submit".
  if (timeout === undefined && (await target.count()) === 0) return { sensitive: false };
  return target.evaluate((el, enter) => {
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
  }, byEnter, { timeout });
}
