// Playwright gives a page's main frame a new frame number each time it
// navigates, so after the first navigation its refs read `f2e41` — the shape
// our refs reserve for iframes. Snapshots print main-frame refs bare (`e41`)
// and remember the prefix, so `e41` resolves again when an agent acts on it.
import type { Locator, Page } from 'playwright';
import { marksOf } from './page-marks.js';

const REF = /\[ref=(f\d+)?e\d+\]/g;
const IFRAME_LINE = /^(\s*)- iframe\b.*:$/;

/** The frame prefix on the refs that sit outside every iframe block ('' when there is none). */
export function mainFramePrefix(tree: string): string {
  const iframeIndents: number[] = [];
  for (const line of tree.split('\n')) {
    const indent = line.length - line.trimStart().length;
    while (iframeIndents.length && iframeIndents.at(-1)! >= indent) iframeIndents.pop();
    if (!iframeIndents.length) {
      for (const m of line.matchAll(REF)) return m[1] ?? '';
    }
    const iframe = IFRAME_LINE.exec(line);
    if (iframe) iframeIndents.push(iframe[1].length);
  }
  return '';
}

/** The tree with main-frame refs bare; `prefix` is what they carried. */
export function bareMainFrameRefs(tree: string, prefix: string): string {
  if (!prefix) return tree;
  return tree.replaceAll(`[ref=${prefix}e`, '[ref=e');
}

/** Records the main frame's prefix for `page` and returns the tree as agents see it. */
export function showMainFrameRefs(page: Page, full: string, shown = full): string {
  const prefix = mainFramePrefix(full);
  marksOf(page).mainRefPrefix = prefix;
  return bareMainFrameRefs(shown, prefix);
}

/** A bare ref (`e41`) is a main-frame ref of the latest snapshot: give it back its prefix. */
export function byRef(page: Page, ref: string): Locator {
  const prefix = marksOf(page).mainRefPrefix ?? '';
  return page.getByRef(/^e\d+$/.test(ref) ? `${prefix}${ref}` : ref);
}
