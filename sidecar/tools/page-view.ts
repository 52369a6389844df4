// Not a capability: what an action's answer shows of the page over MCP. After
// a click, fill, navigate… the host asks for the page's compact view measured
// against the view the agent saw last: only the changed lines when the page
// stayed, the whole new view when it navigated (or none was taken yet), and
// nothing when nothing changed. Recording it as the latest view keeps the next
// answer's diff relative to what the agent has actually seen.
import { diffAgainst } from '../snapshot/history.js';
import { partOf } from '../snapshot/paging.js';
import { pageTool } from '../tool.js';
import { DEFAULT_SNAPSHOT_CHARS, takeView } from './snapshot.js';

export const pageView = pageTool('webcap.page_view', async (call, params) => {
  const { text, previous, mark } = await takeView(call, 'compact');
  const view = params.mode === 'snapshot' ? { text, diff: null } : diffAgainst(previous, text, mark);
  if (view.diff && view.diff.added + view.diff.removed === 0) return { changed: false };
  const fitted = partOf(view.text, DEFAULT_SNAPSHOT_CHARS, 1);
  return { changed: true, kind: view.diff ? 'diff' : 'snapshot', url: call.page.url(), text: fitted.text };
});
