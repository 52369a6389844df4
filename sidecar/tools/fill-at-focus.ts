// web.fill's direct path for a plain text field the look found by a plain CSS
// selector and focused: the field is found again, must still have focus, be
// editable, plain (no password or payment field) and of a kind Playwright
// fills by typing (text, search, url, tel, email, no type, textarea); its text
// is selected and the new text goes in as one trusted insertion, where focus
// is. That is what Playwright's fill does for these fields, without its own
// second lookup and actionability round trips. Anything else (focus moved,
// read-only, a date or number field, an empty text) takes Playwright's fill
// as before. The checks use the DOM functions captured before the page's
// scripts (pristine.ts), so a page that redefines select() or activeElement
// cannot make the text land elsewhere or add to the old text.
import type { Page } from 'playwright';
import type { Pristine } from '../guard/pristine.js';
import { evaluateInPage } from '../guard/redirect-hops.js';
import { fieldInPage } from './field-kind.js';

declare const __webcapPristine: Pristine | undefined;

/** Self-contained (it runs in the page): whether `el` may be typed into at once; if so its text is selected. */
export function readyInPage(css: string, field: typeof fieldInPage): boolean {
  if (typeof __webcapPristine === 'undefined') return false;
  const P = __webcapPristine;
  const el = P.docQuery(css);
  if (!el || P.hasShadowRoots() || P.active(document) !== el) return false;
  if (P.matches(el, ':disabled, :read-only') || field(el).kind !== 'plain') return false;
  const tag = P.tag(el);
  const type = tag === 'input' ? P.lower(P.attr(el, 'type') ?? '') : '';
  const typed = tag === 'textarea' || (tag === 'input' && (type === '' || type === 'text' || type === 'search' || type === 'url' || type === 'tel' || type === 'email'));
  if (!typed) return false;
  P.selectText(el);
  return true;
}

/**
 * Types `text` over the field's text when it can at once (`direct`); else Playwright's fill must (nothing was
 * typed). Either way the page's insertion guard is on the field (`armed`): it stops the text where it lands if
 * focus moved or the field turned secret in between (pristine.ts armInsert); the read-back after the insertion
 * disarms it and says (readBackByCss). `readied`: the look that focused the field already ran readyInPage, it
 * said yes and armed the guard, with nothing in between that waits (no polite delay, no question, no vault):
 * the insertion follows at once.
 */
export async function fillAtFocus(page: Page, css: string, text: string, readied = false): Promise<{ direct: boolean; armed: boolean }> {
  if (text === '') return { direct: false, armed: false };   // Playwright clears with a Delete key press: its path
  // Selecting and arming twice is harmless, so the watch session's evaluate (and its fallback) may run it twice.
  const expression = `(() => {
    const ready = (${readyInPage.toString()})(${JSON.stringify(css)}, ${fieldInPage.toString()}) === true;
    if (!${armingInPage(css, [])}) return 'no';
    return ready ? 'ready' : 'armed';
  })()`;
  const state = readied ? 'ready' : await evaluateInPage(page, expression).catch(() => 'no');
  const armed = state === 'ready' || state === 'armed';
  if (state !== 'ready') return { direct: false, armed };
  await insertingArmed(page, true, () => page.keyboard.insertText(text));
  return { direct: true, armed };
}

/** The expression that arms the page's insertion guard on the field (pristine.ts armInsert): true when it could. */
function armingInPage(css: string, approved: string[]): string {
  return `(() => {
    if (typeof __webcapPristine === 'undefined') return false;
    const el = __webcapPristine.docQuery(${JSON.stringify(css)});
    if (!el || __webcapPristine.hasShadowRoots()) return false;
    __webcapPristine.armInsert(el, ${fieldInPage.toString()}, ${JSON.stringify(approved.join(' '))});
    return true;
  })()`;
}

/** Arms the page's insertion guard on the field (pristine.ts armInsert); false when it could not. */
export async function armInsert(page: Page, css: string, approved: string[]): Promise<boolean> {
  return (await evaluateInPage(page, armingInPage(css, approved)).catch(() => false)) === true;
}

/** Runs an insertion the guard is armed for (`armed`); if it fails the guard goes off again, or it would judge a later insertion. */
export async function insertingArmed<T>(page: Page, armed: boolean, insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (err) {
    if (armed) await disarmInsert(page);
    throw err;
  }
}

async function disarmInsert(page: Page): Promise<void> {
  await evaluateInPage(page, `typeof __webcapPristine === 'undefined' || __webcapPristine.disarmInsert()`).catch(() => undefined);
}
