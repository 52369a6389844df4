// The steps of one run, read from the causal chain for the report: each call
// (✓ or ✗) with the consent questions asked and the heals done while it ran,
// the blocked requests and screenshot recorded right after it, and what each
// plan returned. Built only from entries whose fields have the right types
// (model.ts); the others are listed as invalid.
import { readChainEntries, selectRun, sessionOf, type RawEntry, type Selection } from '../replay/chain-calls.js';
import { stepTarget } from '../rtfs/plan-runner.js';
import { checkEntries, decidedBy, type CheckedEntry, type InvalidEntry } from './model.js';
import { embedScreenshot, type Screenshot } from './screenshot-embed.js';

export interface ReportStep {
  n: number;
  ok: boolean;
  capability: string;
  plan_id?: string;
  target?: string;
  ms?: number;
  /** The policy that decided the step, only where one did (model.ts decidedBy). */
  decided_by?: string;
  error?: string;
  consent: Array<{ question: string; answer: string }>;
  blocked: string[];
  heals: Array<{ from: string; to: string; feature: string }>;
  screenshot?: Screenshot;
  /** The Playwright trace of the session this step closed ([report] trace), or why none was kept. */
  trace?: string;
  traceNote?: string;
}

export interface PlanOutcome { plan_id: string; ok: boolean; returned?: string; error?: string }

export interface ReportData { title: string; chainPath: string; started?: string; steps: ReportStep[]; plans: PlanOutcome[]; invalid: InvalidEntry[] }

/** Any value as text, without calling anything on it (a JSON object can carry a "toString" key). */
const asText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v) ?? '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(asText) : []);
const recordOf = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : {});

export function collectReport(chainPath: string, selection: Selection, workspace: string): ReportData {
  const { entries, invalid } = checkEntries(readChainEntries(chainPath));
  const run = selectRun(entries, selection) as unknown as { label: string; calls: CheckedEntry[] };
  const picked = new Set<RawEntry>(run.calls);
  const sessions = new Set(run.calls.map(sessionOf).filter(Boolean));
  const planIds = new Set(run.calls.map((e) => e.plan_id).filter((p): p is string => typeof p === 'string'));
  let from = entries.indexOf(run.calls[0]!);
  while (from > 0 && entries[from - 1]!.kind !== 'call') from--;   // consent asked before the first call's entry
  const everything = 'afterSeq' in selection;
  const belongs = (e: CheckedEntry) => everything || picked.has(e) || (e.plan_id ? planIds.has(e.plan_id) : !e.session || sessions.has(e.session));

  const steps: ReportStep[] = [];
  const plans: PlanOutcome[] = [];
  let pendingConsent: ReportStep['consent'] = [];
  let pendingHeals: ReportStep['heals'] = [];
  const lastIdx = entries.indexOf(run.calls.at(-1)!);
  for (let i = from; i < entries.length; i++) {
    const e = entries[i]!;
    if (i > lastIdx && e.kind === 'call') break;
    if (!belongs(e)) continue;
    const r = recordOf(e.result);
    const p = e.params ?? {};
    // A ccos.user.ask's own consent entry repeats its call (whose question is shown instead).
    if (e.kind === 'consent' && e.capability === 'ccos.user.ask') continue;
    if (e.kind === 'consent') pendingConsent.push({ question: [e.capability, p.reason, p.origin, p.selector].map(asText).join(' ').replace(/\s+/g, ' ').trim(), answer: `${e.decision?.decision ?? '?'}${e.decision?.reason ? ` — ${e.decision.reason}` : ''}` });
    else if (e.kind === 'healed') pendingHeals.push({ from: asText(p.old_selector), to: asText(p.new_selector), feature: strings(r.matched).join(', ') });
    else if (e.kind === 'plan' && e.plan_id) plans.push({ plan_id: e.plan_id, ok: !e.error, ...(e.error ? { error: `${e.error.code}: ${e.error.message}` } : { returned: JSON.stringify(r.returned ?? null) }) });
    else if (picked.has(e)) {
      if (e.capability === 'ccos.user.ask') pendingConsent.push({ question: asText(p.question), answer: e.error ? 'no' : 'yes' });
      steps.push({
        n: steps.length + 1, ok: !e.error, capability: e.capability ?? e.kind, ...(e.plan_id ? { plan_id: e.plan_id } : {}),
        target: stepTarget(p), ms: e.duration_ms ?? undefined, decided_by: decidedBy(e),
        error: e.error ? `${e.error.code}: ${e.error.message}` : undefined, consent: pendingConsent, blocked: [], heals: pendingHeals,
      });
      attachTrace(steps.at(-1)!, r);
      pendingConsent = [];
      pendingHeals = [];
    } else if (steps.length && e.kind === 'event' && (r.event === 'session_trace' || r.event === 'session_idle_closed')) {
      attachTrace(steps.at(-1)!, r);
    } else if (steps.length && e.kind === 'network_blocked') {
      steps.at(-1)!.blocked.push(...strings(r.hosts), ...strings(r.examples));
    } else if (steps.length && e.kind === 'event' && r.event === 'step_screenshot' && typeof r.path === 'string') {
      steps.at(-1)!.screenshot = embedScreenshot(r.path, workspace);
    }
  }
  return { title: run.label, chainPath, started: run.calls[0]?.ts, steps, plans, invalid };
}

/** The Playwright trace of the session a step closed ([report] trace), or why none was kept. */
function attachTrace(step: ReportStep, r: Record<string, unknown>): void {
  if (typeof r.trace === 'string') step.trace = r.trace;
  if (typeof r.trace_dropped === 'string') step.traceNote = r.trace_dropped;
}
