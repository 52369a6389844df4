// Finds the form control each field key means, in one page round trip. Keys are
// tried as a name, an id, a label text (label, aria-label/labelledby, or the
// legend of a radio/checkbox fieldset), a placeholder, then "auto": the same
// texts compared loosely ("First name" ~ first_name, "email" ~ "Your email").
// The first strategy with exactly one match (or one radio/checkbox group) wins;
// the elements found are marked with a data attribute so later steps address
// them with a plain locator.
import type { Locator, Page } from 'playwright';

export const STRATEGIES = ['name', 'id', 'label', 'placeholder', 'auto'] as const;
export type Strategy = (typeof STRATEGIES)[number];

const FIELD_MARK = 'data-webcap-field';

export type FieldKind = 'text' | 'textarea' | 'select' | 'checkbox' | 'radio' | 'date' | 'password';

export interface Located {
  field: string;
  /** Strategy that found it; absent when nothing (or too much) matched. */
  by?: Strategy;
  kind?: FieldKind;
  /** Elements marked for this field (radio/checkbox groups: more than one). */
  count: number;
  problem?: string;
}

/** Removes our marks once the fill is over, so the page keeps no trace of how it was filled. */
export async function clearMarks(page: Page, ...marks: string[]): Promise<void> {
  await page.evaluate((names) => {
    for (const name of names) for (const el of document.querySelectorAll(`[${name}]`)) el.removeAttribute(name);
  }, [FIELD_MARK, ...marks]).catch(() => undefined); // the page may have navigated away: nothing left to clear
}

/** All marked elements of field i. */
export const fieldLocator = (page: Page, index: number): Locator => page.locator(`[${FIELD_MARK}="${index}"]`);

/** `scope`: a form (or any element holding the fields); without it, the whole page. */
export async function locateFields(page: Page, keys: string[], strategies: readonly Strategy[], scope?: Locator): Promise<Located[]> {
  const args = { keys, strategies: [...strategies], mark: FIELD_MARK };
  return (scope ?? page.locator(':root')).evaluate(findInPage, args);
}

// Runs in the page: self-contained, no closures over Node values.
function findInPage(root: Element, { keys, strategies, mark }: { keys: string[]; strategies: string[]; mark: string }): Located[] {
  const scope = root;
  for (const el of document.querySelectorAll(`[${mark}]`)) el.removeAttribute(mark);
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().replace(/[\s:*]+$/, '').toLowerCase();
  const squash = (s: string | null | undefined) => norm(s).replace(/[^\p{L}\p{N}]+/gu, '');
  // A label's own text, without the text of the control inside it (a select's options).
  const ownText = (node: Element) => {
    const copy = node.cloneNode(true) as Element;
    copy.querySelectorAll('input,select,textarea,option').forEach((c) => c.remove());
    return copy.textContent ?? '';
  };
  const labels = (el: Control) => [...(el.labels ?? [])].map(ownText);
  const aria = (el: Control) => [el.getAttribute('aria-label') ?? '', ...(el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '')];
  const legend = (el: Control) => (el.type === 'radio' || el.type === 'checkbox' ? el.closest('fieldset')?.querySelector('legend')?.textContent ?? '' : '');
  const texts = (el: Control) => [...labels(el), ...aria(el), legend(el)].filter((t) => norm(t) !== '');
  const loose = (el: Control, key: string) => {
    const q = squash(key);
    const all = [el.getAttribute('name'), el.id, el.getAttribute('placeholder'), el.getAttribute('autocomplete'), ...texts(el)].map(squash).filter((t) => t.length >= 2);
    return q.length >= 2 && (all.includes(q) || all.some((t) => t.includes(q) || (t.length >= 3 && q.includes(t))));
  };
  const matchers: Record<string, (el: Control, key: string) => boolean> = {
    name: (el, k) => el.getAttribute('name') === k,
    id: (el, k) => el.id === k,
    label: (el, k) => texts(el).some((t) => norm(t) === norm(k)),
    placeholder: (el, k) => el.hasAttribute('placeholder') && norm(el.getAttribute('placeholder')) === norm(k),
    auto: loose,
  };
  const controls = [...scope.querySelectorAll<Control>('input,select,textarea')]
    .filter((el) => !['hidden', 'submit', 'button', 'reset', 'image'].includes((el as HTMLInputElement).type));
  const shown = (el: Control) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const kindOf = (el: Control): string => {
    if (el instanceof HTMLSelectElement) return 'select';
    if (el instanceof HTMLTextAreaElement) return 'textarea';
    return ['checkbox', 'radio', 'date', 'password', 'file'].includes(el.type) ? el.type : 'text';
  };
  // One control, or one group of radios/checkboxes sharing a name; hidden duplicates give way to shown ones.
  const settle = (hits: Control[]): Control[] | string => {
    if (hits.length <= 1) return hits;
    const group = hits.every((h) => (h.type === 'radio' || h.type === 'checkbox') && h.type === hits[0].type && h.name !== '' && h.name === hits[0].name);
    if (group) return hits;
    const visible = hits.filter(shown);
    if (visible.length === 1) return visible;
    const names = hits.slice(0, 4).map((h) => `${h.tagName.toLowerCase()}${h.name ? `[name=${h.name}]` : ''}${h.id ? `#${h.id}` : ''}`);
    return `matches ${hits.length} fields (${names.join(', ')}); pass "form" to say which form`;
  };
  return keys.map((key, index) => {
    let problem: string | undefined;
    for (const by of strategies) {
      const hits = settle(controls.filter((el) => matchers[by](el, key)));
      if (typeof hits === 'string') { problem ??= `${by}: ${hits}`; continue; }
      if (hits.length === 0) continue;
      const kind = kindOf(hits[0]);
      if (kind === 'file') return { field: key, by, count: hits.length, problem: 'file inputs are not filled here; use web.upload' } as Located;
      if (hits.some((h) => h.disabled)) return { field: key, by, count: hits.length, problem: 'the field is disabled' } as Located;
      if (hits.every((h) => !shown(h))) return { field: key, by, count: hits.length, problem: 'the field is hidden' } as Located;
      if (hits.some((h) => (h as HTMLInputElement).readOnly)) return { field: key, by, count: hits.length, problem: 'the field is read-only' } as Located;
      hits.forEach((h) => h.setAttribute(mark, String(index)));
      return { field: key, by, kind, count: hits.length } as Located;
    }
    return { field: key, count: 0, problem: problem ?? `no field with this ${strategies.length > 1 ? strategies.join(', ') : strategies[0]}` } as Located;
  });
}
