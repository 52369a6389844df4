// web.select's look, which also chooses when it safely can: in the same
// page.evaluate that found the element (look-by-css.ts) it reads the options
// and, when Playwright's selectOption would act at once and pick the same
// options, selects them and dispatches input and change as it does. Anything
// else (disabled, inert, an option it cannot match exactly, a label whose
// whitespace Playwright would normalise) it leaves untouched, and the caller
// takes Playwright's path, which waits and errors as before. It reads and
// acts with the DOM functions captured before the page's scripts
// (pristine.ts): a page that redefines a select's value, an option's
// `selected` or dispatchEvent cannot change what is chosen or reported.
import type { Pristine } from '../guard/pristine.js';

declare const __webcapPristine: Pristine | undefined;

interface SelectWish {
  key: 'value' | 'label';
  wanted: string[];
}

interface SelectLook {
  tag: string;
  multiple: boolean;
  /** Every option, its label as the browser computes it (untrimmed). */
  options: Array<{ value: string; label: string }>;
  /** The values of the options it selected; absent: it chose nothing (the caller decides). */
  picked?: string[];
}

/** Closure-free: it runs in the page as source text, inside lookByCss's expression. */
export function selectInPage(el: Element, wish: SelectWish): SelectLook {
  const P = __webcapPristine!;     // lookByCss misses before this runs when there is no capture
  const tag = P.tag(el);
  const multiple = tag === 'select' && P.multiple(el);
  const look: SelectLook = { tag, multiple, options: [] };
  if (tag !== 'select') return look;
  // No whitespace Playwright's label match would normalise (leading, trailing, doubled, tabs, zero-width).
  const plain = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === ' ' ? i === 0 || i === s.length - 1 || s[i - 1] === ' ' : c <= ' ' || c === '\u00a0' || c === '\u200b' || c === '\u00ad' || c === '\u2028' || c === '\u2029' || c === '\ufeff' || (c >= '\u2000' && c <= '\u200a') || c === '\u3000' || c === '\u1680' || c === '\u202f' || c === '\u205f') return false;
    }
    return true;
  };
  // Disabled or inert as Playwright's checks would find it, read conservatively: any aria-disabled or inert above counts.
  const blocked = (e: Element) => P.attr(e, 'disabled') !== null || P.closest(e, 'fieldset[disabled], optgroup[disabled], [aria-disabled], [inert]') !== null;
  let acts = (wish.wanted.length === 1 || multiple) && !blocked(el);
  const wanted: string[] = [];
  for (let i = 0; i < wish.wanted.length; i++) {
    P.append(wanted, wish.wanted[i]);
    if (wish.key === 'label' && !plain(wish.wanted[i])) acts = false;
  }
  const chosen: Element[] = [];
  const count = P.optionCount(el);
  for (let i = 0; i < count; i++) {
    const option = P.optionAt(el, i);
    if (!option) continue;
    const value = P.optionValue(option);
    const label = P.optionLabel(option);
    P.append(look.options, { value, label });
    if (wish.key === 'label' && !plain(label)) acts = false;
    // Playwright's order: each option in turn takes the first wanted entry it matches (all of them, if several).
    const text = wish.key === 'value' ? value : label;
    let matched = false;
    for (let j = 0; j < wanted.length; j++) if (wanted[j] === text) matched = true;
    if (!matched) continue;
    if (blocked(option)) acts = false;
    P.append(chosen, option);
    const rest: string[] = [];
    for (let j = 0; j < wanted.length; j++) if (wanted[j] !== text) P.append(rest, wanted[j]);
    wanted.length = 0;
    for (let j = 0; j < rest.length; j++) P.append(wanted, rest[j]);
    if (!multiple) wanted.length = 0;
  }
  if (!acts || wanted.length > 0 || chosen.length === 0 || chosen.length > wish.wanted.length) return look;
  P.choose(el, chosen);
  const picked: string[] = [];
  for (let i = 0; i < chosen.length; i++) P.append(picked, P.optionValue(chosen[i]));
  return { tag, multiple, options: look.options, picked };
}
