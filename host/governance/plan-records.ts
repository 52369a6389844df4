// Chain entries that no call's audit writes: a plan's end, and a call to a
// capability that does not exist (refused before any policy runs).
import type { WebcapError } from '../../manifests/errors.js';
import type { Redactor } from '../redact/redactor.js';
import type { ChainWriter } from './chain-writer.js';

export type PlanOutcome = { ok: true; result: unknown } | { ok: false; error: WebcapError };

export function planRecords(chain: ChainWriter, redactor: Redactor) {
  return {
    /** What the plan returned (redacted, summarised) or its error: the report shows it, and a crash never leaves a plan without an end. */
    async recordPlanEnd(planId: string, outcome: PlanOutcome): Promise<void> {
      await chain.append(outcome.ok
        ? { kind: 'plan', plan_id: planId, session: null, result: { event: 'plan_end', ok: true, returned: redactor.summarise(outcome.result ?? null) } }
        : { kind: 'plan', plan_id: planId, session: null, result: { event: 'plan_end', ok: false }, error: { code: outcome.error.code, message: redactor.redactString(outcome.error.message) } }, chain.after);
    },
    async recordUnknown(id: string, planId: string | undefined, error: WebcapError): Promise<void> {
      await chain.append({ kind: 'call', capability: id, plan_id: planId ?? null, params: null, error: { code: error.code, message: error.message }, decision: { decision: 'denied', policy: 'registry', reason: error.message } });
    },
  };
}
