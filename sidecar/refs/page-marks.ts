// What a page looked like when refs were handed out: which document (its
// performance.timeOrigin, unique per loaded document) and URL. A ref that no
// longer resolves is explained by comparing that mark with the page now.
import type { Page } from 'playwright';

export interface DocumentMark { origin: number; url: string }

interface PageMarks {
  /** The document the last web.snapshot of this page saw. */
  snapshot?: DocumentMark;
  /** The frame prefix Playwright gave main-frame refs in the last snapshot ('' before any navigation). */
  mainRefPrefix?: string;
  /** The document the last web.page_content / query saw. */
  elements?: DocumentMark;
}

const marks = new WeakMap<Page, PageMarks>();

export function marksOf(page: Page): PageMarks {
  let m = marks.get(page);
  if (!m) marks.set(page, (m = {}));
  return m;
}

export async function documentMark(page: Page): Promise<DocumentMark> {
  return { origin: await page.evaluate(() => performance.timeOrigin), url: page.url() };
}

/** Why a ref handed out at `then` does not resolve now, in words that say what to do next. */
export async function staleReason(page: Page, ref: string, then: DocumentMark | undefined, retake: string): Promise<string> {
  if (!then) return `${ref} is not a ref of this page: no ${retake} was taken of it yet; call ${retake} and use a ref from its result`;
  const now = await documentMark(page).catch(() => undefined);
  if (!now || now.origin !== then.origin) {
    return `${ref} is stale: the page navigated since the last ${retake} (then ${then.url}, now ${page.url()}); call ${retake} again and use a ref from the new result`;
  }
  return `${ref} is stale: that element is no longer on the page (removed or re-rendered); call ${retake} again and use a ref from the new result`;
}
