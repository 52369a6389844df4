// web.snapshot: the page's accessibility tree from Playwright's "ai" format —
// roles, names, states, and a [ref=eN] on every element one can act on,
// iframes included (f1e3 …). Refs stay the same for the same element across
// snapshots; click/fill/… take them as `ref`. The default view is compact
// (sidecar/snapshot/compact.ts); "full" is Playwright's tree as it is.
import type { Locator, Page } from 'playwright';
import { locateRef } from '../refs/locate.js';
import { showMainFrameRefs } from '../refs/main-frame.js';
import { documentMark, marksOf } from '../refs/page-marks.js';
import { diffAgainst, remember, type DiffView } from '../snapshot/history.js';
import { interactiveOnly } from '../snapshot/interactive.js';
import { redactFieldValues } from '../snapshot/secrets.js';
import { compactLines, printLines, type Out } from '../snapshot/compact.js';
import { fitLines } from '../snapshot/fit.js';
import { refsInView } from '../snapshot/link-runs.js';
import { offTreeSection, snapshotFacts } from '../snapshot/off-tree.js';
import { partOf } from '../snapshot/paging.js';
import { pageTool, waitForSelector, type PageCall } from '../tool.js';

/** One answer of the interactive or full view (and of a page shown after an action); longer comes in parts. */
export const DEFAULT_SNAPSHOT_CHARS = 12_000;
/**
 * The compact view's budget: most real pages fit whole in far less (it is
 * what they need, not this, that sets the answer's size); a page past it is
 * cut where the agent does not act (fit.ts). It is about what @playwright/mcp
 * answers on a median page (docs/benchmarks.md), so where it binds — the
 * largest pages — the answer is no longer than that peer's typical one, and
 * tight ref lists keep about 1,900 elements' refs before any region folds.
 */
const COMPACT_SNAPSHOT_CHARS = 32_000;
type Mode = 'compact' | 'interactive' | 'full';
const VIEWS: Record<Exclude<Mode, 'compact'>, (tree: string) => string> = {
  interactive: interactiveOnly,
  full: (tree) => tree,
};
type Scope = string | Locator;

export const snapshot = pageTool('web.snapshot', async (call, params) => {
  const { page } = call;
  const mode: Mode = params.mode === 'interactive' || params.mode === 'full' ? params.mode : 'compact';
  // `ref`: the part under one element, e.g. a region a cut folded ({"ref":"e17"}).
  const scope = typeof params.ref === 'string' ? await locateRef(page, params.ref) : typeof params.selector === 'string' ? call.selector(params.selector) : undefined;
  const { text, lines, previous, mark, title } = await takeView(call, mode, scope);
  const view: DiffView = params.diff === true ? diffAgainst(previous, text, mark) : { text, diff: null };
  const budget = params.max_chars ?? (mode === 'compact' ? COMPACT_SNAPSHOT_CHARS : DEFAULT_SNAPSHOT_CHARS);
  const part = params.page ?? 1;
  // A long compact view folds what the agent does not act on; what still does not fit comes in parts, by `page`.
  const folded = lines && params.diff !== true && text.length > budget ? fitLines(lines, budget) : null;
  const fitted = partOf(folded?.text ?? view.text, budget, part);
  return {
    url: page.url(),
    title,
    mode,
    snapshot: fitted.text,
    refs: refsInView(text).length,
    truncated: fitted.truncated || !!folded,
    ...(fitted.truncated || folded ? { total_chars: text.length } : {}),
    ...(fitted.pages > 1 ? { page: fitted.page, pages: fitted.pages } : {}),
    ...(params.diff === true ? { diff: view.diff } : {}),
    ...(view.note ? { note: view.note } : {}),
  };
});

/** Takes the page's view in `mode`, records it as the latest one the agent saw, and returns the one it replaces. */
export async function takeView(call: PageCall, mode: Mode, scope?: Scope) {
  const { page, timeout } = call;
  // The tree and the one in-page pass for everything else run side by side: a snapshot costs the longer of the two.
  // The compact view also lists what the tree cannot show as actionable (handlers on plain elements), by wa-N id.
  const [aria, facts] = await Promise.all([ariaTree(page, scope, timeout), snapshotFacts(call.session, page, mode === 'compact' && !scope)]);
  const tree = redactFieldValues(aria, facts.secrets);
  const offTree = offTreeSection(facts.elements);
  const lines = mode === 'compact' ? [...compactLines(tree, facts.hidden), ...offTreeLines(offTree)] : undefined;
  const text = lines ? printLines(lines) : VIEWS[mode as Exclude<Mode, 'compact'>](tree);
  // A frame the pass could not read (navigating) leaves no document identity: read it apart then.
  const mark = Number.isNaN(facts.mark.origin) ? await documentMark(page) : facts.mark;
  marksOf(page).snapshot = mark;
  const previous = remember(page, `${mode} ${scope ?? ''}`, text, mark);
  return { text, lines, previous, mark, title: facts.title };
}

function offTreeLines(section: string): Out[] {
  return section ? section.split('\n').map((line) => ({ depth: line.length - line.trimStart().length, text: line.trimStart(), isText: false })) : [];
}

async function ariaTree(page: Page, scope: Scope | undefined, timeout: number): Promise<string> {
  if (!scope) return showMainFrameRefs(page, await page.ariaSnapshot({ mode: 'ai', timeout }));
  const root = typeof scope === 'string' ? await waitForSelector(page, scope, timeout, 'attached') : scope;
  const text = await root.ariaSnapshot({ mode: 'ai', timeout });
  // Playwright resolves refs against the latest snapshot of a frame, and a
  // scoped one would orphan every ref outside the scope: re-take the page's.
  return showMainFrameRefs(page, await page.ariaSnapshot({ mode: 'ai', timeout }), text);
}
