// web.tabs: the pages of one session (one browser context). Every tab shares
// the session's cookies and its network guard (routes are per context, so a
// tab or popup cannot reach a host the session could not). Actions apply to
// the active tab; a new tab or a popup becomes active, as in sessions.ts.
// Tabs keep their id (t1, t2, …) for the session's life; indexes shift.
import type { Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { eventsOf } from '../page-events.js';
import { hopsReady } from '../guard/redirect-hops.js';
import type { Session } from '../sessions/sessions.js';
import { pageTool } from '../tool.js';
import { go } from './navigation.js';

export async function describeTabs(session: Session): Promise<Array<{ tab: string; index: number; url: string; title: string; active: boolean }>> {
  const events = eventsOf(session);
  return Promise.all(session.context.pages().map(async (p, index) => ({
    tab: events.tabId(p), index, url: p.url(),
    // A page stuck in a script must not stall the listing.
    title: await Promise.race([p.title(), new Promise<string>((done) => setTimeout(() => done(''), 1000).unref())]).catch(() => ''),
    active: p === session.page,
  })));
}

function findTab(session: Session, tab: unknown): Page {
  const pages = session.context.pages();
  const events = eventsOf(session);
  const page = typeof tab === 'number' ? pages[tab] : pages.find((p) => events.tabId(p) === tab);
  if (!page) {
    const known = pages.map((p, i) => `${events.tabId(p)} (index ${i})`).join(', ');
    throw new WebcapError('invalid_params', `web.tabs: no tab ${JSON.stringify(tab)} in session "${session.name}"; open tabs: ${known}`, { field: 'tab' });
  }
  return page;
}

export const tabs = pageTool('web.tabs', async ({ session, timeout, ctx }, params) => {
  const action = params.action ?? 'list';
  if (action === 'new') {
    const before = session.page;
    const page = await session.context.newPage();
    await hopsReady(page);
    session.page = page; // the context's 'page' listener does this too; this call must not depend on event order
    let loaded: Record<string, unknown> = {};
    if (typeof params.url === 'string') {
      try {
        await ctx.polite(session);
        loaded = await go(page, params.url, params, timeout, () => ctx.lastBlocked(session.name));
      } catch (err) {
        // A tab that could not load its page is no use: close it and go back to the one before.
        await page.close().catch(() => undefined);
        if (!before.isClosed()) session.page = before;
        throw err;
      }
    }
    return { action, tab: eventsOf(session).tabId(page), ...loaded, tabs: await describeTabs(session) };
  }
  if (action === 'switch') {
    if (params.tab === undefined) throw new WebcapError('invalid_params', 'web.tabs switch: say which tab (`tab`: an id like "t2" or an index)', { field: 'tab' });
    const page = findTab(session, params.tab);
    session.page = page;
    await page.bringToFront();
    return { action, tab: eventsOf(session).tabId(page), url: page.url(), tabs: await describeTabs(session) };
  }
  if (action === 'close') {
    const page = params.tab === undefined ? session.page : findTab(session, params.tab);
    if (session.context.pages().length <= 1) {
      throw new WebcapError('invalid_params', `web.tabs close: tab ${eventsOf(session).tabId(page)} is the session's last tab; use web.close to end session "${session.name}"`, { field: 'tab' });
    }
    const closed = eventsOf(session).tabId(page);
    await page.close();
    if (session.page === page || session.page.isClosed()) session.page = session.context.pages().at(-1)!;
    return { action, closed, tab: eventsOf(session).tabId(session.page), tabs: await describeTabs(session) };
  }
  return { action: 'list', tab: eventsOf(session).tabId(session.page), tabs: await describeTabs(session) };
});
