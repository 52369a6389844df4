// Refs handed out to agents, back to elements. Two kinds, one parameter:
//   e12, f1e3  — from web.snapshot (Playwright's aria refs; f1… is inside an iframe)
//   wa-12      — from web.page_content / web.query_elements (data-web-agent-id)
// Both are checked now rather than waited for: a ref that does not resolve is
// stale, and waiting out the timeout would only hide that.
import type { Locator, Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { byRef } from './main-frame.js';
import { marksOf, staleReason, documentMark } from './page-marks.js';

export const SNAPSHOT_REF = /^(f\d+)?e\d+$/;
const ELEMENT_ID = /^wa-\d+$/;
export const ID_ATTRIBUTE = 'data-web-agent-id';

export async function locateRef(page: Page, ref: string): Promise<Locator> {
  if (SNAPSHOT_REF.test(ref)) return snapshotRef(page, ref);
  if (ELEMENT_ID.test(ref)) return elementId(page, ref);
  throw new WebcapError('invalid_params', `ref "${ref}" is neither a snapshot ref (like e12 or f1e3, from web.snapshot) nor an element id (like wa-12, from web.page_content)`, { ref });
}

async function snapshotRef(page: Page, ref: string): Promise<Locator> {
  const locator = byRef(page, ref);
  // An unknown frame prefix (f9e1) throws; it is as stale as a missing element.
  const count = await locator.count().catch(() => 0);
  if (count > 0) return locator;
  throw new WebcapError('stale_ref', await staleReason(page, ref, marksOf(page).snapshot, 'web.snapshot'), { ref });
}

async function elementId(page: Page, id: string): Promise<Locator> {
  const then = marksOf(page).elements;
  const found: Locator[] = [];
  for (const frame of page.frames()) {
    const locator = frame.locator(`[${ID_ATTRIBUTE}="${id}"]`);
    const count = await locator.count().catch(() => 0);
    for (let i = 0; i < count; i++) found.push(locator.nth(i));
  }
  // Ids are never reused within a session, so a match in another document is a
  // page copying our attribute: refuse it rather than act on the wrong element.
  const now = found.length === 1 ? await documentMark(page).catch(() => undefined) : undefined;
  if (found.length === 1 && then && now?.origin === then.origin) return found[0];
  if (found.length > 1) {
    throw new WebcapError('stale_ref', `${id} now names ${found.length} elements; call web.page_content again and use an id from the new result`, { ref: id });
  }
  throw new WebcapError('stale_ref', await staleReason(page, id, then, 'web.page_content'), { ref: id });
}
