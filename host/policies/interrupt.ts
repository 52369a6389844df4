// Stop, as a policy right after audit (so an interrupted call is recorded
// like any other): a call of a plan the person stopped never starts, and a
// running call ends at once as interrupted when the person presses Stop or
// the caller goes away (Ctrl-C through the daemon). The sidecar is told
// separately (ConsoleHub.stop) so nothing more leaves the session's pages.
import { WebcapError } from '../../manifests/errors.js';
import type { ConsoleHub } from '../console/hub.js';
import type { CallContext, Policy } from './types.js';

function interruptedError(call: Pick<CallContext, 'capability' | 'planId'>, why: string): WebcapError {
  return new WebcapError('consent_denied', `interrupted: ${why}; ${call.capability} did not finish${call.planId ? ` and plan ${call.planId} makes no further call` : ''}`, { interrupted: true });
}

function whoAsked(call: CallContext): string {
  if (call.step) return `${call.step}${call.planId ? ` (${call.planId})` : ''}`;
  if (call.caller) return call.caller;
  if (call.via?.mcp_session) return `MCP client (session ${call.via.mcp_session})`;
  return call.planId ? `plan ${call.planId}` : 'library';
}

export function interruptPolicy(hub: ConsoleHub): Policy {
  return async (call, next) => {
    if (call.signal?.aborted) throw interruptedError(call, 'the caller went away');
    const running = hub.begin({ capability: call.capability, session: call.session, planId: call.planId, who: whoAsked(call), params: call.params });
    if (running === 'stopped') throw interruptedError(call, 'the person stopped this plan');
    let onCallerGone: (() => void) | undefined;
    const interrupted = new Promise<never>((_, reject) => {
      running.abort.signal.addEventListener('abort', () => reject(interruptedError(call, 'the person pressed Stop')), { once: true });
      onCallerGone = () => {
        // The caller left: stop the session's pages too, so the action does not go on without anyone.
        if (call.session) void hub.stop(call.session, 'caller_gone');
        reject(interruptedError(call, 'the caller went away (Ctrl-C)'));
      };
      call.signal?.addEventListener('abort', onCallerGone, { once: true });
    });
    interrupted.catch(() => undefined);
    let result: Record<string, unknown> | undefined;
    try {
      result = await Promise.race([next(), interrupted]);
      return result;
    } finally {
      if (onCallerGone) call.signal?.removeEventListener('abort', onCallerGone);
      hub.end(running, result);
    }
  };
}
