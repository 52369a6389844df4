// web.console: what the session's pages logged since the last web.console of
// that session (console messages and uncaught errors of every tab), plus the
// dialogs the policy answered and the downloads saved or refused. Reading
// marks them read, so each call shows only what is new.
import { eventsOf } from '../page-events.js';
import { pageTool } from '../tool.js';

export const consoleRead = pageTool('web.console', async ({ session, page }) => {
  const events = eventsOf(session);
  const messages = events.console.take();
  const dialogs = events.dialogs.take();
  const downloads = events.downloads.take();
  const dropped = messages.dropped + dialogs.dropped + downloads.dropped;
  return {
    url: page.url(),
    messages: messages.items,
    dialogs: dialogs.items,
    downloads: downloads.items,
    ...(dropped ? { dropped, note: `${dropped} older entries were dropped (at most 500 of each kind are kept); read web.console more often` } : {}),
  };
});
