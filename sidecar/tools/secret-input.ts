// Marks a result whose typed text landed in a password or payment field
// (`secret_input: true`), so the host records the keys or text of that call
// as [REDACTED] (host/redact/typed-text.ts). Asked per character key, when it
// lands: focus can move between keys (Tab, a page script) and a field can
// turn into type=password on focus.
import type { Locator, Page } from 'playwright';
import { describeField } from './field-kind.js';
import { describeFieldByCss } from './look-by-css.js';

/** A key that may type a character: a single one or Shift + one (the host's typed-text.ts judges the rest). */
export function typesText(key: string): boolean {
  const m = /^Shift\+(.+)$/.exec(key);
  return [...(m ? m[1] : key)].length === 1;
}

/** Whether the element a key goes to now is a secret field; no element (the page body) is not. */
export async function landsInSecret(element: Locator | undefined, byCss?: { page: Page; css: string }): Promise<boolean> {
  if (!element) return false;
  const quick = byCss && await describeFieldByCss(byCss.page, byCss.css);
  if (quick) return quick.kind !== 'plain';
  const field = await describeField(element, 2_000).catch(() => ({ kind: 'password' as const })); // unknown: fail closed
  return field.kind !== 'plain';
}

/** After a fill: is the field a password or payment field now (one page.evaluate for plain CSS)? */
export async function fieldTurnedSecret(page: Page, target: Locator, css: string | undefined): Promise<boolean> {
  const now = (css && await describeFieldByCss(page, css)) || await describeField(target, 2_000).catch(() => undefined);
  return !!now && now.kind !== 'plain';
}

/** What the secret field holds now (after a key), so the host can hide it in every later URL and message. */
export async function secretValue(element: Locator | undefined): Promise<string | undefined> {
  return element?.inputValue({ timeout: 2_000 }).catch(() => undefined);
}

/**
 * `secret_value` is for the host only: it learns the value as a secret and
 * removes the field before anyone sees the result (host/redact/typed-text.ts).
 */
export const secretMark = (secret: boolean, value?: string) => (secret ? { secret_input: true as const, ...(value ? { secret_value: value } : {}) } : {});
