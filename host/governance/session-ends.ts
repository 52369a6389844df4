// Sessions closed outside a caller's web.close: those a plan opened, when it
// ends, and every one still open when the host closes. A profile's session is
// closed through its profile, so its storage can be saved (with consent).
import type { BrowserBackend } from '../providers/browser-backend.js';
import type { Profiles } from '../profiles/manager.js';
import { closeWithProfile } from '../profiles/terminal.js';
import type { SessionTracker } from '../sidecar-link/session-tracker.js';
import type { ChainWriter } from './chain-writer.js';
import { DEFAULT_OWNER } from './terminal.js';

export function sessionEnds(chain: ChainWriter, browser: BrowserBackend, profiles: Profiles, sessions: SessionTracker) {
  const close = (session: string, owner: string, planId?: string) => closeWithProfile(profiles, session, (p) => browser.invoke('web.close', p, 10_000, owner), planId);
  return {
    async closeSession(session: string, planId: string, owner: string): Promise<void> {
      if (sessions.ownerOf(session) !== owner) return;
      const started = Date.now();
      // Write-ahead for the plan's own clean-up too; a chain that cannot take it does not keep the session open.
      const via = browser.name !== 'sidecar' ? { via: { provider: browser.name } } : {};
      const intent = await chain.append({ kind: 'intent', capability: 'web.close', plan_id: planId, session, params: { session }, ...via }).catch(() => undefined);
      const result = await close(session, owner, planId).catch((err: unknown) => ({ error: String(err) }));
      sessions.closed(session);
      await chain.append({ kind: 'call', capability: 'web.close', plan_id: planId, session, params: { session }, result, duration_ms: Date.now() - started, decision: { decision: 'allowed', policy: 'plan_cleanup', reason: 'sessions a plan opened are closed when it ends' }, ...via, ...(intent ? { intent_seq: intent.seq } : {}) }, chain.after);
    },
    /** Profile sessions still open, one by one, before the browser goes. */
    async closeProfileSessions(): Promise<void> {
      for (const session of profiles.sessions()) await close(session, sessions.ownerOf(session) ?? DEFAULT_OWNER).catch(() => undefined);
    },
  };
}
