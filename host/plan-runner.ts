// Runs an RTFS plan: every (call …) goes through the host with the plan's id,
// each step is reported for the plan log, and the sessions the plan opened are
// closed when it ends, on success or error.
import { randomUUID } from 'node:crypto';
import { toWebcapError } from '../manifests/errors.js';
import type { CallResult } from './policies/types.js';
import { shownCapabilityId } from './redact/capability-id.js';
import { stepTarget } from './redact/step-target.js';
import { evaluatePlan } from './rtfs/index.js';

export { stepTarget } from './redact/step-target.js';

export interface StepLog {
  n: number;
  capability: string;
  target?: string;
  ok: boolean;
  ms: number;
  error?: { code: string; message: string };
}

export interface PlanOptions {
  planId?: string;
  onStep?(step: StepLog): void;
  onLog?(message: string): void;
}

export interface PlanDeps {
  call(id: string, params: Record<string, unknown>, opts: { planId: string }): Promise<CallResult>;
  closeSession(session: string, planId: string): Promise<void>;
  /** [plans] max_steps / max_duration_s (host/rtfs/limits.ts). */
  limits?: { max_steps: number; max_duration_s: number };
  /** Applied to every string a step log or plan log line carries (the host's redactor); stderr is a log too. */
  redact?(text: string): string;
}

export function newPlanId(): string {
  return `plan-${randomUUID().slice(0, 8)}`;
}

export async function runPlanWith(deps: PlanDeps, source: string, opts: PlanOptions = {}): Promise<unknown> {
  const planId = opts.planId ?? newPlanId();
  const opened = new Set<string>();
  const redact = deps.redact ?? ((t: string) => t);
  let n = 0;
  try {
    return await evaluatePlan(source, {
      log: opts.onLog && ((message: string) => opts.onLog!(redact(message))),
      limits: deps.limits && { maxSteps: deps.limits.max_steps, maxDurationMs: deps.limits.max_duration_s * 1000 },
      async call(capability, params) {
        const step = ++n;
        const started = Date.now();
        const target = stepTarget(params);
        const shown = redact(shownCapabilityId(capability));
        try {
          const result = await deps.call(capability, params, { planId });
          if (capability === 'web.open' && typeof result.session === 'string') opened.add(result.session);
          if (capability === 'web.close' && typeof result.closed === 'string') opened.delete(result.closed);
          opts.onStep?.({ n: step, capability: shown, target: target && redact(target), ok: true, ms: Date.now() - started });
          return result;
        } catch (err) {
          const e = toWebcapError(err);
          opts.onStep?.({ n: step, capability: shown, target: target && redact(target), ok: false, ms: Date.now() - started, error: { code: e.code, message: redact(e.message) } });
          throw e;
        }
      },
    });
  } finally {
    for (const session of opened) await deps.closeSession(session, planId).catch(() => undefined);
  }
}
