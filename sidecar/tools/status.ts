// web.url (where the session's active tab is) and web.status (every session:
// age, idleness, tabs, what is unread in web.console, recent dialogs and
// downloads). web.status works with no session open, so an agent can always ask.
import { eventsOf } from '../page-events.js';
import { defineTool, pageTool } from '../tool.js';
import { describeTabs } from './tabs.js';

export const url = pageTool('web.url', async ({ page, session }) => ({
  url: page.url(),
  title: await page.title().catch(() => ''),
  tab: eventsOf(session).tabId(page),
}));

export const status = defineTool('web.status', async (ctx) => {
  const now = Date.now();
  const sessions = await Promise.all(ctx.sessions.list().map(async (s) => {
    const events = eventsOf(s);
    return {
      session: s.name,
      current: s.name === ctx.sessions.current,
      created_at: new Date(s.createdAt).toISOString(),
      age_s: Math.round((now - s.createdAt) / 1000),
      idle_s: Math.round((now - s.lastUsed) / 1000),
      active_tab: events.tabId(s.page),
      tabs: await describeTabs(s),
      unread: { console: events.console.unreadCount, dialogs: events.dialogs.unreadCount, downloads: events.downloads.unreadCount },
      recent_dialogs: events.dialogs.recent(5),
      recent_downloads: events.downloads.recent(5),
    };
  }));
  return { current: ctx.sessions.current, sessions, idle_timeout_s: ctx.init.browser.idle_timeout_s, max_concurrent_sessions: ctx.init.browser.max_concurrent_sessions };
});
