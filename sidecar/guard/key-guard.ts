// The sidecar's side of the page's key guard (pristine.ts armKeys): arm it,
// and disarm it while reading what it stopped and the field's value, each in
// one round trip on the page's watch session, whose answer the browser copies
// out itself (a page cannot rewrite it). The guard stops keys where they land;
// these calls only switch it and read its record.
import type { Page } from 'playwright';
import type { KeyRecord } from './pristine.js';
import { fieldInPage } from '../tools/field-kind.js';
import { watchEvaluate } from './redirect-hops.js';

/** Arms the guard with the kinds the user already approved; false when it could not (no capture, no watch, gone). */
export async function armKeys(page: Page, approved: Iterable<string>): Promise<boolean> {
  const watched = watchEvaluate(page);
  if (!watched) return false;
  const kinds = [...approved].join(' ');
  const expression = `(() => {
    if (typeof __webcapPristine === 'undefined') return false;
    __webcapPristine.armKeys(${JSON.stringify(kinds)}, ${fieldInPage.toString()});
    return true;
  })()`;
  return (await watched(expression).catch(() => false)) === true;
}

export interface Disarmed { record: KeyRecord; value?: string }

/**
 * Disarms the guard; with `css`, also reads that field's value now. Undefined
 * when the record is lost (the document went away, no watch): the caller
 * cannot tell which keys it stopped.
 */
export async function disarmKeys(page: Page, css?: string): Promise<Disarmed | undefined> {
  const watched = watchEvaluate(page);
  if (!watched) return undefined;
  const expression = `(() => {
    if (typeof __webcapPristine === 'undefined') return undefined;
    const P = __webcapPristine;
    const record = P.disarmKeys();
    const el = ${css === undefined ? 'null' : `P.docQuery(${JSON.stringify(css)})`};
    return { record, value: el ? P.value(el) : undefined };
  })()`;
  const r = await watched(expression).catch(() => undefined) as Partial<Disarmed> | undefined;
  const rec = r?.record;
  if (!rec || !Number.isInteger(rec.stopped) || !Number.isInteger(rec.seen) || typeof rec.why !== 'string') return undefined;
  return { record: { stopped: rec.stopped, why: rec.why, seen: rec.seen }, ...(typeof r.value === 'string' ? { value: r.value } : {}) };
}
