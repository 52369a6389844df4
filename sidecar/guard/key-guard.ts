// The sidecar's side of the page's key guard (pristine.ts armKeys): arm it,
// and disarm it while reading what it stopped and the field's value, each in
// one round trip. The answer is one string built with `+` (which a page
// cannot redefine), copied out by the browser on the page's watch session
// when there is one. The guard stops keys where they land; these calls only
// switch it and read its record.
import type { Page } from 'playwright';
import type { KeyRecord } from './pristine.js';
import { fieldInPage } from '../tools/field-kind.js';
import { evaluateInPage } from './redirect-hops.js';

/** Arms the guard with the kinds the user already approved; false when it could not (no capture, gone). */
export async function armKeys(page: Page, approved: Iterable<string>): Promise<boolean> {
  const kinds = [...approved].join(' ');
  const expression = `(() => {
    if (typeof __webcapPristine === 'undefined') return 'no';
    __webcapPristine.armKeys(${JSON.stringify(kinds)}, ${fieldInPage.toString()});
    return 'armed';
  })()`;
  return (await evaluateInPage(page, expression).catch(() => 'no')) === 'armed';
}

export interface Disarmed { record: KeyRecord; value?: string }

/**
 * Disarms the guard; with `css`, also reads that field's value now. Undefined
 * when the record is lost (the document went away): the caller cannot tell
 * which keys it stopped.
 */
export async function disarmKeys(page: Page, css?: string): Promise<Disarmed | undefined> {
  // "<stopped> <seen> <why>", a line break, then "v" and the value, or "-" for none.
  const expression = `(() => {
    if (typeof __webcapPristine === 'undefined') return '';
    const P = __webcapPristine;
    const r = P.disarmKeys();
    const el = ${css === undefined ? 'null' : `P.docQuery(${JSON.stringify(css)})`};
    const value = el ? P.value(el) : undefined;
    return r.stopped + ' ' + r.seen + ' ' + r.why + '\\n' + (typeof value === 'string' ? 'v' + value : '-');
  })()`;
  const answer = await evaluateInPage(page, expression).catch(() => '');
  if (typeof answer !== 'string') return undefined;
  const cut = answer.indexOf('\n');
  const [stopped, seen, why] = answer.slice(0, cut).split(' ');
  const record = { stopped: Number(stopped), seen: Number(seen), why: why ?? '' };
  if (cut < 0 || !Number.isInteger(record.stopped) || !Number.isInteger(record.seen)) return undefined;
  const rest = answer.slice(cut + 1);
  return { record, ...(rest.startsWith('v') ? { value: rest.slice(1) } : {}) };
}
