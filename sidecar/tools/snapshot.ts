// web.snapshot: the page's accessibility tree in Playwright's "ai" format —
// roles, names, states, and a [ref=eN] on every element one can act on,
// iframes included (f1e3 …). Refs stay the same for the same element across
// snapshots; click/fill/… take them as `ref`.
import type { Page } from 'playwright';
import { documentMark, marksOf } from '../refs/page-marks.js';
import { diffAgainst, remember, type DiffView } from '../snapshot/history.js';
import { interactiveOnly } from '../snapshot/interactive.js';
import { redactFieldValues, secretFieldValues } from '../snapshot/secrets.js';
import { fitToBudget } from '../text-budget.js';
import { pageTool, waitForSelector } from '../tool.js';

export const DEFAULT_SNAPSHOT_CHARS = 8000;
const HINT = 'Narrow it with mode "interactive" or a selector, or raise max_chars.';

export const snapshot = pageTool('web.snapshot', async (call, params) => {
  const { page, timeout } = call;
  const mode = params.mode === 'interactive' ? 'interactive' : 'full';
  const scope = typeof params.selector === 'string' ? call.selector(params.selector) : undefined;
  const tree = redactFieldValues(await ariaTree(page, scope, timeout), await secretFieldValues(page));
  const text = mode === 'interactive' ? interactiveOnly(tree) : tree;
  const mark = await documentMark(page);
  marksOf(page).snapshot = mark;
  const previous = remember(page, `${mode} ${scope ?? ''}`, text, mark);
  const view: DiffView = params.diff === true ? diffAgainst(previous, text, mark) : { text, diff: null };
  const fitted = fitToBudget(view.text, (params.max_chars as number | undefined) ?? DEFAULT_SNAPSHOT_CHARS, HINT);
  return {
    url: page.url(),
    title: await page.title(),
    mode,
    snapshot: fitted.text,
    refs: text.match(/\[ref=/g)?.length ?? 0,
    truncated: fitted.truncated,
    total_chars: fitted.total_chars,
    ...(params.diff === true ? { diff: view.diff } : {}),
    ...(view.note ? { note: view.note } : {}),
  };
});

async function ariaTree(page: Page, scope: string | undefined, timeout: number): Promise<string> {
  if (!scope) return page.ariaSnapshot({ mode: 'ai', timeout });
  const root = await waitForSelector(page, scope, timeout, 'attached');
  const text = await root.ariaSnapshot({ mode: 'ai', timeout });
  // Playwright resolves refs against the latest snapshot of a frame, and a
  // scoped one would orphan every ref outside the scope: re-take the page's.
  await page.ariaSnapshot({ mode: 'ai', timeout });
  return text;
}
