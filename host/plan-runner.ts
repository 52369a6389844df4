// Runs an RTFS plan: every (call …) goes through the host with the plan's id,
// each step is reported for the plan log, and the sessions the plan opened are
// closed when it ends, on success or error.
import { randomUUID } from 'node:crypto';
import { toWebcapError } from '../manifests/errors.js';
import type { CallResult } from './policies/types.js';
import { evaluatePlan } from './rtfs/index.js';
import { makeHealer, type HealDeps, type HealOptions } from './replay/heal.js';
import { fillPlaceholders, planInputs } from './replay/inputs.js';

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
  /** Values for the plan's {{name}} placeholders (webcap run --input name=value). */
  inputs?: Record<string, string>;
  /** Healing (issue 14): force: heal every call with a selector (--heal); onHeal: for --update-plan. */
  heal?: HealOptions;
}

export interface PlanDeps {
  call(id: string, params: Record<string, unknown>, opts: { planId: string }): Promise<CallResult>;
  closeSession(session: string, planId: string): Promise<void>;
  heal?: HealDeps;
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
  const values = planInputs(source, opts.inputs ?? {});
  const heal = makeHealer(deps.heal, opts.heal ?? {}, planId);
  try {
    return await evaluatePlan(source, {
      log: opts.onLog,
      async call(capability, raw, where, options) {
        const params = fillPlaceholders(raw, values) as Record<string, unknown>;
        const step = ++n;
        const started = Date.now();
        const target = capability === 'web.fill' ? stepTarget({ selector: params.selector }) : stepTarget(raw); // placeholders, not the values typed
        try {
          const result = await heal(capability, params, options, where, (p) => deps.call(capability, p, { planId }));
          if (capability === 'web.open' && typeof result.session === 'string') opened.add(result.session);
          if (capability === 'web.close' && typeof result.closed === 'string') opened.delete(result.closed);
          opts.onStep?.({ n: step, capability, target, ok: true, ms: Date.now() - started });
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
