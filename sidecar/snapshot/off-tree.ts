// The compact view's last section: interactable elements the accessibility
// tree has no actionable line for (off-tree-in-page.ts), addressed by wa-N ids
// so every visible interactable element of the page can be acted on from the
// snapshot alone. Ids share web.page_content's numbering and staleness rules.
import type { Page } from 'playwright';
import { nextElementId, setNextElementId } from '../elements/collect.js';
import { marksOf, type DocumentMark } from '../refs/page-marks.js';
import { ID_ATTRIBUTE } from '../refs/locate.js';
import type { Session } from '../sessions/sessions.js';
import { PAYMENT } from '../tools/field-kind.js';
import { offTreeInPage, type HiddenName, type OffTreeElement } from './off-tree-in-page.js';
import { idsExpression } from '../elements/wa-ids.js';
import { evaluateInPage } from '../guard/redirect-hops.js';

interface SnapshotFacts { elements: OffTreeElement[]; hidden: HiddenName[]; secrets: Set<string>; mark: DocumentMark; title: string }

/** One pass per frame: off-tree elements (when `offTree`), secret field values, and the main document's mark and title. */
export async function snapshotFacts(session: Session, page: Page, offTree: boolean): Promise<SnapshotFacts> {
  let next = nextElementId(session);
  const elements: OffTreeElement[] = [];
  const hidden: HiddenName[] = [];
  const secrets = new Set<string>();
  let main = { origin: NaN, title: '' };
  for (const frame of page.frames()) {
    const expression = idsExpression(offTreeInPage, { attr: ID_ATTRIBUTE, next, offTree, payment: PAYMENT.source });
    // The main frame's pass on the page's watch session: one plain Runtime.evaluate (redirect-hops.ts evaluateInPage).
    const run = frame === page.mainFrame() ? evaluateInPage(page, expression) : frame.evaluate(expression);
    const found = await (run as Promise<Awaited<ReturnType<typeof offTreeInPage>>>).catch(() => undefined);
    if (!found) continue;
    // Hidden elements' names: the main frame's only (compact.ts matches them to its part of the tree).
    if (frame === page.mainFrame()) { main = found; hidden.push(...found.hidden); }
    next = found.next;
    elements.push(...found.elements);
    for (const v of found.secrets) secrets.add(v);
  }
  setNextElementId(session, next);
  const mark = { origin: main.origin, url: page.url() };
  if (elements.length) marksOf(page).elements = mark;
  return { elements, hidden, secrets, mark, title: main.title };
}

/** Lines for the compact view; empty when every interactable element already has a line. */
export function offTreeSection(elements: OffTreeElement[]): string {
  if (!elements.length) return '';
  const kind = (tag: string) => (tag === 'a' ? 'link' : tag === 'button' ? 'button' : ['input', 'select', 'textarea'].includes(tag) ? tag : 'clickable');
  return ['- not in the accessibility tree (act on these ids too):', ...elements.map((e) => `  - ${kind(e.tag)}${e.text ? ` ${JSON.stringify(e.text)}` : ''} [ref=${e.id}]`)].join('\n');
}
