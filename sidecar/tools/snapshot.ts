// web.snapshot: the page's accessibility tree from Playwright's "ai" format —
// roles, names, states, and a [ref=eN] on every element one can act on,
// iframes included (f1e3 …). Refs stay the same for the same element across
// snapshots; click/fill/… take them as `ref`. The default view is compact
// (sidecar/snapshot/compact.ts); "full" is Playwright's tree as it is.
import type { Page } from 'playwright';
import { showMainFrameRefs } from '../refs/main-frame.js';
import { documentMark, marksOf } from '../refs/page-marks.js';
import { diffAgainst, remember, type DiffView } from '../snapshot/history.js';
import { interactiveOnly } from '../snapshot/interactive.js';
import { redactFieldValues, secretFieldValues } from '../snapshot/secrets.js';
import { COMPACT_LEGEND, compactView } from '../snapshot/compact.js';
import { offTreeElements, offTreeSection } from '../snapshot/off-tree.js';
import { partOf } from '../snapshot/paging.js';
import { pageTool, waitForSelector, type PageCall } from '../tool.js';

export const DEFAULT_SNAPSHOT_CHARS = 8000;
export type Mode = 'compact' | 'interactive' | 'full';
const VIEWS: Record<Mode, (tree: string) => string> = {
  compact: (tree) => `${COMPACT_LEGEND}\n${compactView(tree)}`,
  interactive: interactiveOnly,
  full: (tree) => tree,
};

export const snapshot = pageTool('web.snapshot', async (call, params) => {
  const { page } = call;
  const mode: Mode = params.mode === 'interactive' || params.mode === 'full' ? params.mode : 'compact';
  const scope = typeof params.selector === 'string' ? call.selector(params.selector) : undefined;
  const { text, previous, mark } = await takeView(call, mode, scope);
  const view: DiffView = params.diff === true ? diffAgainst(previous, text, mark) : { text, diff: null };
  const fitted = partOf(view.text, params.max_chars ?? DEFAULT_SNAPSHOT_CHARS, params.page ?? 1);
  return {
    url: page.url(),
    title: await page.title(),
    mode,
    snapshot: fitted.text,
    refs: text.match(/\[ref=/g)?.length ?? 0,
    truncated: fitted.truncated,
    total_chars: fitted.total_chars,
    ...(fitted.pages > 1 ? { page: fitted.page, pages: fitted.pages } : {}),
    ...(params.diff === true ? { diff: view.diff } : {}),
    ...(view.note ? { note: view.note } : {}),
  };
});

/** Takes the page's view in `mode`, records it as the latest one the agent saw, and returns the one it replaces. */
export async function takeView(call: PageCall, mode: Mode, scope?: string) {
  const { page, timeout } = call;
  const tree = redactFieldValues(await ariaTree(page, scope, timeout), await secretFieldValues(page));
  // The compact view also lists what the tree cannot show as actionable (handlers on plain elements), by wa-N id.
  const offTree = mode === 'compact' && !scope ? offTreeSection(await offTreeElements(call.session, page)) : '';
  const text = offTree ? `${VIEWS[mode](tree)}\n${offTree}` : VIEWS[mode](tree);
  const mark = await documentMark(page);
  marksOf(page).snapshot = mark;
  const previous = remember(page, `${mode} ${scope ?? ''}`, text, mark);
  return { text, previous, mark };
}

async function ariaTree(page: Page, scope: string | undefined, timeout: number): Promise<string> {
  if (!scope) return showMainFrameRefs(page, await page.ariaSnapshot({ mode: 'ai', timeout }));
  const root = await waitForSelector(page, scope, timeout, 'attached');
  const text = await root.ariaSnapshot({ mode: 'ai', timeout });
  // Playwright resolves refs against the latest snapshot of a frame, and a
  // scoped one would orphan every ref outside the scope: re-take the page's.
  return showMainFrameRefs(page, await page.ariaSnapshot({ mode: 'ai', timeout }), text);
}
