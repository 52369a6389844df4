// Runs an RTFS plan: every (call …) goes through the host with the plan's id,
// each step is reported for the plan log, and the sessions the plan opened are
// closed when it ends, on success or error.
import { randomUUID } from 'node:crypto';
import { toWebcapError } from '../manifests/errors.js';
import type { CallResult } from './policies/types.js';
import { evaluatePlan } from './rtfs/index.js';
import { softFailure } from './soft-failure.js';

export interface StepLog {
  n: number;
  capability: string;
  target?: string;
  ok: boolean;
  ms: number;
  error?: { code: string; message: string };
  /** The call answered but did not do its job (a fill_form with success: false): a ✗ step, and the CLI exits 1. */
  failed?: string;
}

export interface PlanOptions {
  planId?: string;
  onStep?(step: StepLog): void;
  onLog?(message: string): void;
}

export interface PlanDeps {
  call(id: string, params: Record<string, unknown>, opts: { planId: string }): Promise<CallResult>;
  closeSession(session: string, planId: string): Promise<void>;
}

export function newPlanId(): string {
  return `plan-${randomUUID().slice(0, 8)}`;
}

/** What a step acted on, for the log: a URL, a selector, keys, a question. */
export function stepTarget(params: Record<string, unknown>): string | undefined {
  const t = params.url ?? params.selector ?? params.keys ?? params.question ?? params.policy ?? params.by ?? params.text ?? params.time;
  if (t === undefined) return undefined;
  const s = typeof t === 'string' ? t : JSON.stringify(t);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

export async function runPlanWith(deps: PlanDeps, source: string, opts: PlanOptions = {}): Promise<unknown> {
  const planId = opts.planId ?? newPlanId();
  const opened = new Set<string>();
  let n = 0;
  try {
    return await evaluatePlan(source, {
      log: opts.onLog,
      async call(capability, params) {
        const step = ++n;
        const started = Date.now();
        const target = capability === 'web.fill' ? stepTarget({ selector: params.selector }) : stepTarget(params);
        try {
          const result = await deps.call(capability, params, { planId });
          if (capability === 'web.open' && typeof result.session === 'string') opened.add(result.session);
          if (capability === 'web.close' && typeof result.closed === 'string') opened.delete(result.closed);
          const failed = softFailure(capability, result);
          opts.onStep?.({ n: step, capability, target, ok: !failed, ms: Date.now() - started, ...(failed ? { failed } : {}) });
          return result;
        } catch (err) {
          const e = toWebcapError(err);
          opts.onStep?.({ n: step, capability, target, ok: false, ms: Date.now() - started, error: { code: e.code, message: e.message } });
          throw e;
        }
      },
    });
  } finally {
    for (const session of opened) await deps.closeSession(session, planId).catch(() => undefined);
  }
}
