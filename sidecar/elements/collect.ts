// Node side of the indexed view: runs the in-page collector in every frame of
// the page, numbering on from where the session left off. Ids are never reused
// within a session, so an id from an earlier page cannot land on an element of
// a later one: it is stale instead.
import type { Page } from 'playwright';
import { documentMark, marksOf } from '../refs/page-marks.js';
import { ID_ATTRIBUTE } from '../refs/locate.js';
import type { Session } from '../sessions/sessions.js';
import { PAYMENT } from '../tools/field-kind.js';
import { collectInPage, type RawElement } from './in-page.js';
import { evaluateWithIds } from './wa-ids.js';

export interface ElementInfo extends RawElement {
  /** URL of the iframe holding it; absent for the top page. */
  frame?: string;
}

const nextIdOf = new WeakMap<Session, number>();

/** The session's next unused wa-N number (the compact snapshot numbers off-tree elements from it too). */
export function nextElementId(session: Session): number {
  return nextIdOf.get(session) ?? 0;
}

export function setNextElementId(session: Session, next: number): void {
  nextIdOf.set(session, next);
}

export async function collectElements(session: Session, page: Page): Promise<ElementInfo[]> {
  // Marked before numbering: if the page navigates meanwhile, its new ids count as stale, never the reverse.
  const mark = await documentMark(page);
  let next = nextIdOf.get(session) ?? 0;
  const all: ElementInfo[] = [];
  for (const frame of page.frames()) {
    // A frame can detach while we walk them; what it held is gone with it.
    const found = await evaluateWithIds(frame, collectInPage, { attr: ID_ATTRIBUTE, next, payment: PAYMENT.source }).catch(() => undefined);
    if (!found) continue;
    next = found.next;
    const where = frame === page.mainFrame() ? {} : { frame: frame.url() };
    for (const el of found.elements) all.push({ ...el, ...where });
  }
  nextIdOf.set(session, next);
  marksOf(page).elements = mark;
  return all;
}

/** Counts per tag, as element_types. */
export function countTags(elements: ElementInfo[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const el of elements) counts[el.tag] = (counts[el.tag] ?? 0) + 1;
  return counts;
}

/** One line per element: `[wa-3] <a href="/docs">Docs</a>`, attributes an agent reads by. */
export function indexedLine(el: ElementInfo): string {
  const shown = ['href', 'type', 'name', 'placeholder', 'aria-label', 'value', 'checked', 'disabled', 'role'];
  const attrs = shown
    .filter((k) => el.attributes[k] !== undefined)
    .map((k) => ` ${k}="${String(el.attributes[k]).replace(/"/g, '&quot;')}"`)
    .join('');
  const frame = el.frame ? `  (in iframe ${el.frame})` : '';
  const open = `<${el.tag}${attrs}>`;
  if (el.tag === 'input') return `[${el.web_agent_id}] ${open}${el.text ? ` ${el.text}` : ''}${frame}`;
  return `[${el.web_agent_id}] ${open}${el.text}</${el.tag}>${frame}`;
}
