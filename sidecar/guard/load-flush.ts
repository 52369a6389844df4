// The effect gate's flush after a navigation, sent the moment the new
// document's load event reaches the page's watch session, so its round trip
// overlaps goto()'s own return and the caller's work after it (measured: the
// round trip right after a load takes about 3 ms, the renderer being busy
// then; this saves 1-2 ms of it). The flush is the same ordered round trip as
// before (redirect-hops.ts flushReadingTitle): sent after the load event, it
// answers once the load handlers and their zero-delay timers have run. It
// counts only if exactly one document committed in the main frame while
// goto() ran and the flush went to that one; else the caller sends the flush
// after goto() as before.
import type { Page } from 'playwright';
import { titleFlush, watchSession } from './redirect-hops.js';

type Lifecycle = 'load' | 'domcontentloaded';

const EVENT: Record<Lifecycle, string> = { load: 'Page.loadEventFired', domcontentloaded: 'Page.domContentEventFired' };

interface LoadFlush {
  /** After goto(): the flush reading the title, if it went to the document goto() ended on; else undefined. */
  settled(): Promise<string> | undefined;
}

/** Arms the flush for the navigation about to start; undefined when the page has no watch session. */
export function flushAtLoad(page: Page, lifecycle: Lifecycle): LoadFlush | undefined {
  const session = watchSession(page);
  if (!session) return undefined;
  let commits = 0;
  let flushed: Promise<string> | undefined;
  let flushedAt = 0;
  const committed = (e: { frame: { parentId?: string } }) => { if (!e.frame.parentId) commits += 1; };
  const loaded = () => {
    if (commits === 0 || flushed) return;
    flushedAt = commits;
    flushed = titleFlush(session);
    flushed.catch(() => undefined);
  };
  session.on('Page.frameNavigated', committed);
  session.on(EVENT[lifecycle] as 'Page.loadEventFired', loaded);
  return {
    settled() {
      session.off('Page.frameNavigated', committed);
      session.off(EVENT[lifecycle] as 'Page.loadEventFired', loaded);
      return commits === 1 && flushedAt === 1 ? flushed : undefined;
    },
  };
}
