// Runs an RTFS plan: every (call …) goes through the host with the plan's id,
// each step is reported for the plan log, and the sessions the plan opened are
// closed when it ends, on success or error.
import { randomUUID } from 'node:crypto';
import { toWebcapError, type WebcapError } from '../../manifests/errors.js';
import type { CallResult } from '../policies/types.js';
import { shownCapabilityId } from '../redact/capability-id.js';
import { stepTarget } from '../redact/step-target.js';
import { evaluatePlan } from './index.js';
import { makeHealer, type HealDeps, type HealOptions } from '../replay/heal.js';
import { planInputs } from '../replay/inputs.js';
import { softFailure } from './soft-failure.js';

export { stepTarget } from '../redact/step-target.js';

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
  /** Values for the plan's {{name}} placeholders (webcap run --input name=value). */
  inputs?: Record<string, string>;
  /** Healing: force: heal every call with a selector (--heal); onHeal: for --update-plan. */
  heal?: HealOptions;
  /** Abort to interrupt the plan (its caller went away): the running call ends as interrupted, no further call runs. */
  signal?: AbortSignal;
}

interface PlanDeps {
  call(id: string, params: Record<string, unknown>, opts: { planId: string; step?: string; signal?: AbortSignal }): Promise<CallResult>;
  closeSession(session: string, planId: string): Promise<void>;
  /** [plans] max_steps / max_duration_s / max_bytes (host/rtfs/limits.ts). */
  limits?: { max_steps: number; max_duration_s: number; max_bytes?: number };
  /** Applied to every string a step log or plan log line carries (the host's redactor); stderr is a log too. */
  redact?(text: string): string;
  heal?: HealDeps;
}

export function newPlanId(): string {
  return `plan-${randomUUID().slice(0, 8)}`;
}

export async function runPlanWith(deps: PlanDeps, source: string, opts: PlanOptions = {}): Promise<unknown> {
  const planId = opts.planId ?? newPlanId();
  const opened = new Set<string>();
  const redact = deps.redact ?? ((t: string) => t);
  let n = 0;
  const values = planInputs(source, opts.inputs ?? {}, deps.limits?.max_bytes);
  const secrets = secretInputs(source, values);
  const heal = makeHealer(deps.heal, opts.heal ?? {}, planId);
  try {
    const value = await evaluatePlan(source, {
      log: opts.onLog && ((message: string) => opts.onLog!(redact(message))),
      limits: deps.limits && { maxSteps: deps.limits.max_steps, maxDurationMs: deps.limits.max_duration_s * 1000, ...(deps.limits.max_bytes ? { maxBytes: deps.limits.max_bytes } : {}) },
      inputs: values,
      async call(capability, params, where, options) {
        const step = ++n;
        const started = Date.now();
        // The step log never shows typed text (host/redact/step-target.ts) nor a secret input's value.
        const target = stepTarget(hideSecretInputs(params, secrets));
        const shown = redact(shownCapabilityId(capability));
        try {
          const result = await heal(capability, params, options, where, (p) => deps.call(capability, p, { planId, step: `plan:${where.line}:${where.column}`, ...(opts.signal ? { signal: opts.signal } : {}) }));
          if (capability === 'web.open' && typeof result.session === 'string') opened.add(result.session);
          if (capability === 'web.close' && typeof result.closed === 'string') opened.delete(result.closed);
          const failed = softFailure(capability, result);
          opts.onStep?.({ n: step, capability: shown, target: target && redact(target), ok: !failed, ms: Date.now() - started, ...(failed ? { failed: redact(failed) } : {}) });
          return result;
        } catch (err) {
          const e = toWebcapError(err);
          opts.onStep?.({ n: step, capability: shown, target: target && redact(target), ok: false, ms: Date.now() - started, error: { code: e.code, message: redact(e.message) } });
          throw e;
        }
      },
    });
    return value;
  } finally {
    for (const session of opened) await deps.closeSession(session, planId).catch(() => undefined);
  }
}

/** Inputs the plan's header gives no default (an export's secrets), with their values: never shown. */
function secretInputs(source: string, values: Record<string, string>): [string, string][] {
  const defaults = planInputs(source.split('\n').filter((l) => l.startsWith(';;')).join('\n'), {});
  return Object.entries(values).filter(([name, v]) => !Object.hasOwn(defaults, name) && v.length > 0);
}

/** The params as the step log may show them: a secret input's value back to its {{name}}. */
function hideSecretInputs(params: Record<string, unknown>, secrets: [string, string][]): Record<string, unknown> {
  if (!secrets.length) return params;
  const hide = (v: unknown) => (typeof v === 'string' ? secrets.reduce((s, [name, value]) => s.split(value).join(`{{${name}}}`), v) : v);
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, hide(v)]));
}
