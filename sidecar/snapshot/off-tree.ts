// The compact view's last section: interactable elements the accessibility
// tree has no actionable line for (off-tree-in-page.ts), addressed by wa-N ids
// so every visible interactable element of the page can be acted on from the
// snapshot alone. Ids share web.page_content's numbering and staleness rules.
import type { Page } from 'playwright';
import { nextElementId, setNextElementId } from '../elements/collect.js';
import { documentMark, marksOf } from '../refs/page-marks.js';
import { ID_ATTRIBUTE } from '../refs/locate.js';
import type { Session } from '../sessions/sessions.js';
import { offTreeInPage, type OffTreeElement } from './off-tree-in-page.js';
import { evaluateWithIds } from '../elements/wa-ids.js';

export async function offTreeElements(session: Session, page: Page): Promise<OffTreeElement[]> {
  const mark = await documentMark(page);
  let next = nextElementId(session);
  const all: OffTreeElement[] = [];
  for (const frame of page.frames()) {
    const found = await evaluateWithIds(frame, offTreeInPage, { attr: ID_ATTRIBUTE, next }).catch(() => undefined);
    if (!found) continue;
    next = found.next;
    all.push(...found.elements);
  }
  setNextElementId(session, next);
  if (all.length) marksOf(page).elements = mark;
  return all;
}

/** Lines for the compact view; empty when every interactable element already has a line. */
export function offTreeSection(elements: OffTreeElement[]): string {
  if (!elements.length) return '';
  const kind = (tag: string) => (tag === 'a' ? 'link' : tag === 'button' ? 'button' : ['input', 'select', 'textarea'].includes(tag) ? tag : 'clickable');
  return ['- not in the accessibility tree (act on these ids too):', ...elements.map((e) => `  - ${kind(e.tag)}${e.text ? ` ${JSON.stringify(e.text)}` : ''} [ref=${e.id}]`)].join('\n');
}
