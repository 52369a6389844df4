// What kind of field or button an element is, read in the page. This decides
// whether an action is sensitive, so it looks at the DOM, never at page text
// that could try to talk us out of asking.
import type { Locator, Page } from 'playwright';
import type { Pristine } from '../guard/pristine.js';
import { evaluateInPage } from '../guard/redirect-hops.js';

export interface FieldInfo { tag: string; type: string; kind: 'password' | 'payment' | 'plain' }

/** Hints (autocomplete, name, id) of a payment field; also used to keep its value out of snapshots. */
export const PAYMENT = /^cc-|card|cvc|cvv|iban|expir/i;

// The in-page checks are plain functions without closures, so they run both
// through a locator and inside the one-round-trip fast path (look-by-css.ts). They read
// the DOM only through the functions captured before the page's scripts ran
// (pristine.ts); without them they fail closed (sensitive).
declare const __webcapPristine: Pristine | undefined;

export function fieldInPage(el: Element): FieldInfo {
  if (typeof __webcapPristine === 'undefined') return { tag: 'unknown', type: '', kind: 'password' };
  const P = __webcapPristine;
  const tag = P.tag(el);
  const type = P.lower(P.attr(el, 'type') ?? '');
  const hints = [P.attr(el, 'autocomplete'), P.attr(el, 'name'), P.attr(el, 'id')];
  let payment = false;
  for (let i = 0; i < hints.length; i++) if (hints[i] && P.paymentHint(hints[i] as string)) payment = true;
  const kind = type === 'password' ? 'password' : payment ? 'payment' : 'plain';
  return { tag, type, kind };
}

/**
 * Enter in a field submits its form; a click does when it lands on (or inside)
 * a submit button or an image input. Sensitive: the submission POSTs (form
 * method, or the button's formmethod) or the form carries a password.
 */
export function submitInPage(el: Element, enter: boolean): { sensitive: boolean } {
  if (typeof __webcapPristine === 'undefined') return { sensitive: true };
  const P = __webcapPristine;
  const owner = (x: Element) => {
    const id = P.attr(x, 'form');
    return id ? P.byId(id) : P.closest(x, 'form');
  };
  let submitter: Element | null = null;
  if (!enter) {
    submitter = P.closest(el, 'button, input[type=submit i], input[type=image i]');
    if (!submitter) return { sensitive: false };
    const type = P.lower(P.attr(submitter, 'type') ?? 'submit');
    if (P.tag(submitter) === 'button' && type !== 'submit') return { sensitive: false };
  }
  const form = owner(submitter ?? el);
  if (!form || P.tag(form) !== 'form') return { sensitive: false };
  const method = P.lower((submitter && P.attr(submitter, 'formmethod')) || P.attr(form, 'method') || 'get');
  const secret = P.query(form, 'input[type=password i]') !== null;
  return { sensitive: method === 'post' || secret };
}

export async function describeField(target: Locator, timeout?: number): Promise<FieldInfo> {
  return target.evaluate(fieldInPage, undefined, { timeout });
}

/** A click or Enter that submits a form is sensitive when the form POSTs or carries a password. */
export async function describeSubmit(target: Locator, byEnter = false, timeout?: number): Promise<{ sensitive: boolean }> {
  // Without a timeout (Enter on whatever has focus) an absent element means "nothing to submit".
  if (timeout === undefined && (await target.count()) === 0) return { sensitive: false };
  return target.evaluate(submitInPage, byEnter, { timeout });
}

/** How long a read-back waits for its field: it was there a moment ago, or its input submitted the form and the page moved on. */
export const READ_BACK_MS = 1_000;

/** The value a field holds after the set; null when it is gone with its page (the call's timeout is not waited out for it). */
export const valueAfter = (field: Locator) => field.inputValue({ timeout: READ_BACK_MS }).catch(() => null);

/** The value a plain-CSS field holds now, in one page.evaluate (undefined: use page.inputValue). */
export async function readValueByCss(page: Page, css: string): Promise<string | undefined> {
  return (await readBackByCss(page, css))?.value;
}

/**
 * After a fill, in one page.evaluate: the value the field holds now and its
 * kind now (a field that turned into a password field while typed into is
 * one now). undefined: use the locator calls.
 */
export async function readBackByCss(page: Page, css: string, insert = false): Promise<{ value?: string; field?: FieldInfo; stopped?: string } | undefined> {
  // `insert`: the look armed the page's insertion guard (pristine.ts armInsert): disarm it and say what it stopped.
  const expression = `(() => {
    if (typeof __webcapPristine === 'undefined') return undefined;
    const outcome = ${insert ? '__webcapPristine.disarmInsert()' : "''"};
    const stopped = outcome === '' || outcome === 'ok' ? undefined : outcome;
    const el = __webcapPristine.docQuery(${JSON.stringify(css)});
    if (!el) return stopped === undefined ? undefined : { stopped };
    const value = __webcapPristine.value(el);
    if (__webcapPristine.hasShadowRoots()) return { value, stopped };
    return { value, field: (${fieldInPage.toString()})(el), stopped };
  })()`;
  return evaluateInPage(page, expression).catch(() => undefined) as Promise<{ value?: string; field?: FieldInfo; stopped?: string } | undefined>;
}
