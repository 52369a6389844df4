// Two policies around the person taking over a session (web.handoff):
// - while the person drives a session, the agent's calls on it wait (and a
//   call that waits out its timeout says the person is driving);
// - after a plan step, a page that shows a CAPTCHA, a 2FA code prompt or a
//   login wall is handed to the person ([handoff] on_captcha = "ask") or
//   fails the step (on_captcha = "fail": a CAPTCHA is captcha_detected).
import { WebcapError } from '../../manifests/errors.js';
import type { ConsoleHub } from '../console/hub.js';
import { withoutToken } from '../console/hub.js';
import type { CallContext, CallResult, Policy } from './types.js';

export function waitWhileDrivenPolicy(hub: ConsoleHub, defaultTimeoutMs: number): Policy {
  return async (call, next) => {
    const session = call.session;
    if (session && hub.handoffs.driving(session)) {
      const reason = hub.handoffs.of(session)?.reason;
      const ms = typeof call.params.timeout === 'number' ? call.params.timeout : defaultTimeoutMs;
      if (!await hub.waitWhileDriven(session, ms, call.signal)) {
        if (call.signal?.aborted) return next();   // the interrupt policy above reports it
        throw new WebcapError('timeout', `${call.capability}: the person is driving session ${session} in the console (web.handoff${reason ? `: ${reason}` : ''}); waited ${ms} ms. Call again after they press Done.`, { timeout_ms: ms, handoff: true });
      }
    }
    return next();
  };
}

export interface ChallengeFound { kind: 'captcha' | 'two_factor' | 'login_wall'; vendor: string }

interface ChallengeDeps {
  mode: 'fail' | 'ask';
  /** What the session's page shows now (sidecar webcap.challenge_probe); null when nothing a person must solve. */
  probe(call: CallContext, session: string): Promise<ChallengeFound | null>;
  /** Runs web.handoff on the session as a call of the same caller and plan step (governed and recorded like any call). */
  handOff(call: CallContext, session: string, reason: string): Promise<CallResult>;
  hub: ConsoleHub;
}

// The plan steps after which a page may have turned into a challenge.
const PROBED = new Set(['web.open', 'web.navigate', 'web.click', 'web.keypress', 'web.fill_form']);

const WHAT: Record<ChallengeFound['kind'], string> = {
  captcha: 'a CAPTCHA or bot challenge',
  two_factor: 'a 2FA code prompt',
  login_wall: 'a login wall',
};

export function challengePolicy(deps: ChallengeDeps): Policy {
  return async (call, next) => {
    const result = await next();
    if (!call.step || !PROBED.has(call.capability)) return result;
    const session = typeof result.session === 'string' ? result.session : call.session;
    if (!session) return result;
    const found = await deps.probe(call, session).catch(() => null);
    if (!found) return result;
    const url = typeof result.url === 'string' ? result.url : '';
    const what = `${WHAT[found.kind]} (${found.vendor})`;
    if (deps.mode === 'ask') {
      await deps.handOff(call, session, `The page ${url} shows ${what}: please get past it, then press Done.`);
      return result;
    }
    // "fail": a plan may answer a 2FA prompt or log in itself ({{secret:}}, {{totp:}}); a CAPTCHA it cannot.
    if (found.kind !== 'captcha') return result;
    const where = deps.hub.url
      ? `a person can take over in the console (${withoutToken(deps.hub.url)}) with [handoff] on_captcha = "ask"`
      : 'set [handoff] on_captcha = "ask" and serve the console for a person to take over';
    throw new WebcapError('captcha_detected', `${call.step}: ${url} shows ${what}; webcap does not solve CAPTCHAs: ${where}`, { url, vendor: found.vendor, kind: found.kind });
  };
}
