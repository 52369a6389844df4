// The previous snapshot of each page (per mode and scope), so web.snapshot can
// answer "what changed" instead of resending the whole tree.
import type { Page } from 'playwright';
import type { DocumentMark } from '../refs/page-marks.js';
import { diffLines, renderDiff } from './diff.js';

export interface Previous { text: string; mark: DocumentMark }

const history = new WeakMap<Page, Map<string, Previous>>();
const MAX_KEPT = 16;

export interface DiffView {
  text: string;
  /** Null when the full snapshot is sent instead (see note). */
  diff: { added: number; removed: number } | null;
  note?: string;
}

/** Records `text` as the latest snapshot for `key`, returning the one it replaces. */
export function remember(page: Page, key: string, text: string, mark: DocumentMark): Previous | undefined {
  let byKey = history.get(page);
  if (!byKey) history.set(page, (byKey = new Map()));
  const previous = byKey.get(key);
  byKey.delete(key);
  byKey.set(key, { text, mark });
  // Each selector is its own key: keep the most recent few, not every one ever asked for.
  if (byKey.size > MAX_KEPT) byKey.delete(byKey.keys().next().value!);
  return previous;
}

export function diffAgainst(previous: Previous | undefined, text: string, mark: DocumentMark): DiffView {
  if (!previous) return { text, diff: null, note: 'no earlier snapshot of this page with this mode and selector: this is the full snapshot' };
  if (previous.mark.origin !== mark.origin) {
    return { text, diff: null, note: `the page navigated since the previous snapshot (was ${previous.mark.url}): this is the full snapshot` };
  }
  const ops = diffLines(previous.text.split('\n'), text.split('\n'));
  const added = ops?.filter((o) => o.kind === '+').length ?? 0;
  const removed = ops?.filter((o) => o.kind === '-').length ?? 0;
  if (ops && added + removed === 0) return { text: 'no changes since the previous snapshot', diff: { added, removed } };
  const rendered = ops && renderDiff(ops);
  if (!rendered || rendered.length >= text.length) {
    return { text, diff: null, note: 'most of the page changed since the previous snapshot: this is the full snapshot' };
  }
  return { text: rendered, diff: { added, removed }, note: `diff against the previous snapshot: lines starting "+ " are new, "- " are gone, "  " unchanged context` };
}
