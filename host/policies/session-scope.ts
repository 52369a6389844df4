// Every caller (a plan run, an MCP client, a command, a library scope) may act
// only on the browser sessions it opened. Governance says which those are
// (CallContext.scope, from the host's session view); a call naming another
// caller's session, or needing one when its caller has none, is refused here,
// inside the chain, so the attempt is recorded like any other refusal, and
// answered exactly as if the session did not exist. The sidecar enforces the
// same where the page is (sidecar/sessions/sessions.ts); this only refuses earlier.
import { WebcapError } from '../../manifests/errors.js';
import type { Policy } from './types.js';

/** Capabilities that create a session rather than need one (web.fill_form opens one when given a url). */
export const OPENS_SESSION = new Set(['web.open', 'web.fill_form']);

/**
 * Capabilities whose `session` names a recorded run, not a live page (the
 * session may be long closed): they read the chain, filtered to the caller's
 * own entries where several clients share it (providers/index.ts).
 */
const NAMES_HISTORY = new Set(['web.plan_export']);

export interface SessionOwner {
  owns(session: string): boolean;
  /** Held by another client of the same host. */
  takenElsewhere(session: string): boolean;
  readonly sessions: readonly string[];
  /** The authenticated principal this scope belongs to ([[mcp.clients]] name), when the server has several. */
  readonly owner?: string;
  /** A session of this caller's that a crash took (any of them, when no name is given). */
  lostInCrash?(session: string | undefined): boolean;
}

export function sessionScopePolicy(): Policy {
  return async (call, next) => {
    const scope = call.scope;
    const props = (call.manifest.input_schema.properties ?? {}) as Record<string, unknown>;
    if (!scope || !('session' in props) || NAMES_HISTORY.has(call.capability)) return next();
    const named = typeof call.params.session === 'string' ? call.params.session : undefined;
    const refuse = (message: string): never => {
      call.decisions.push({ policy: 'session_scope', decision: 'denied', reason: message });
      throw new WebcapError('session_not_found', message, { session: named ?? null });
    };
    // web.fill_form opens a session only when given a url; without one it needs the caller's own.
    const opens = OPENS_SESSION.has(call.capability) && (call.capability === 'web.open' || typeof call.params.url === 'string');
    if (opens) {
      if (named && scope.takenElsewhere(named)) refuse(notOpen(named, scope.sessions));
    } else if (!(named ? scope.owns(named) : scope.sessions.length) && scope.lostInCrash?.(named)) {
      call.decisions.push({ policy: 'session_scope', decision: 'denied', reason: 'the browser crashed and took the session' });
      throw new WebcapError('browser_crashed', `the browser crashed and took ${named ? `session "${named}"` : "this caller's sessions"} with it; web.open starts a new one`, { session: named ?? null });
    } else if (!named) {
      // Without a name the call goes to the caller's own latest session: none means none, never another's.
      if (!scope.sessions.length) refuse('no session is open: call web.open first');
    } else if (!scope.owns(named)) {
      refuse(notOpen(named, scope.sessions));
    }
    return next();
  };
}

function notOpen(name: string, own: readonly string[]): string {
  return `no open session named "${name}" (open: ${own.join(', ') || 'none'})`;
}
