// Asks the user before a capability that always needs approval (manifest
// approval 'always', or listed in [consent] require). 'sensitive' capabilities
// pass here: only the sidecar sees the page and knows whether a field is a
// password or a click submits a form, so it asks through confirmSensitive.
import { WebcapError } from '../../manifests/errors.js';
import type { WebcapConfig } from '../config/types.js';
import { hintFor, whyNot, type ConsentGate } from '../consent/gate.js';
import { quote } from '../consent/text.js';
import { orRefuse } from '../store/refusal.js';
import type { Policy } from './types.js';

export function consentPolicy(gate: ConsentGate, config: WebcapConfig['consent']): Policy {
  return async (call, next) => {
    const { capability, manifest } = call;
    const required = config.require.includes(capability);
    if (manifest.approval !== 'always' && !required) return next();
    // Waived ids still go through the gate: it approves without asking but records the waiver.
    const origin = call.url?.origin;
    const reason = manifest.approval === 'always' ? 'approval_always' : 'config_require';
    const answer = await orRefuse(call, 'consent', 'a remembered approval', () => gate.confirm({
      capability, origin, reason, session: call.session,
      question: `Allow ${capability} on ${origin ? quote(origin) : 'the current page'}?`,
      details: { params: redacted(call.params, manifest.sensitive_params ?? []) },
    }));
    call.decisions.push({
      policy: 'consent', decision: answer.approved ? 'allowed' : 'denied', reason,
      details: { capability, origin, source: answer.source },
    });
    if (!answer.approved) {
      throw new WebcapError('consent_denied', `${whyNot(answer)} ${capability} on ${origin ?? 'the current page'}${hintFor(answer)}`, { capability, origin, ...(answer.timed_out ? { timed_out: true } : {}), ...(answer.nobody ? { nobody_asked: true } : {}) });
    }
    return next();
  };
}

/** The user sees what the call will do, but secrets stay out of the prompt (it may be logged by an embedder). */
function redacted(params: Record<string, unknown>, sensitive: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, sensitive.includes(k) ? '[redacted]' : v]));
}
