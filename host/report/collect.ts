// The steps of one run, read from the causal chain for the HTML report: each
// call (✓ or ✗) with the consent questions asked and the heals done while it
// ran, and the blocked requests and screenshot recorded right after it.
import { readChainEntries, selectRun, sessionOf, type RawEntry, type Selection } from '../replay/chain-calls.js';
import { stepTarget } from '../plan-runner.js';

export interface ReportStep {
  n: number;
  ok: boolean;
  capability: string;
  target?: string;
  ms?: number;
  decision?: string;
  error?: string;
  consent: Array<{ question: string; answer: string }>;
  blocked: string[];
  heals: Array<{ from: string; to: string; feature: string }>;
  screenshot?: string;
  /** The Playwright trace of the session this step closed ([report] trace), or why none was kept. */
  trace?: string;
  traceNote?: string;
}

export interface ReportData { title: string; chainPath: string; started?: string; steps: ReportStep[] }

export function collectReport(chainPath: string, selection: Selection): ReportData {
  const entries = readChainEntries(chainPath);
  const run = selectRun(entries, selection);
  const picked = new Set(run.calls);
  const sessions = new Set(run.calls.map(sessionOf).filter(Boolean));
  const planIds = new Set(run.calls.map((e) => e.plan_id).filter(Boolean));
  const firstIdx = entries.indexOf(run.calls[0]!);
  let from = firstIdx;
  while (from > 0 && !(entries[from - 1]!.kind === 'call')) from--;   // consent asked before the first call's entry
  const everything = 'afterSeq' in selection;
  const belongs = (e: RawEntry) => everything || picked.has(e) || (e.plan_id ? planIds.has(e.plan_id) : !e.session || sessions.has(e.session));

  const steps: ReportStep[] = [];
  let pendingConsent: ReportStep['consent'] = [];
  let pendingHeals: ReportStep['heals'] = [];
  const lastIdx = entries.indexOf(run.calls.at(-1)!);
  for (let i = from; i < entries.length; i++) {
    const e = entries[i]!;
    if (i > lastIdx && e.kind === 'call') break;
    if (!belongs(e)) continue;
    const r = (e.result ?? {}) as Record<string, unknown>;
    const p = (e.params ?? {}) as Record<string, unknown>;
    // A ccos.user.ask's own consent entry repeats its call (whose question is shown instead).
    if (e.kind === 'consent' && e.capability === 'ccos.user.ask') continue;
    if (e.kind === 'consent') pendingConsent.push({ question: `${e.capability ?? ''} ${p.reason ?? ''} ${p.origin ?? ''} ${p.selector ?? ''}`.replace(/\s+/g, ' ').trim(), answer: `${e.decision?.decision ?? '?'}${e.decision?.reason ? ` — ${e.decision.reason}` : ''}` });
    else if (e.kind === 'healed') pendingHeals.push({ from: String(p.old_selector), to: String(p.new_selector), feature: ((r.matched as string[] | undefined) ?? []).join(', ') });
    else if (picked.has(e)) {
      const error = e.error ? `${e.error.code}: ${e.error.message}` : undefined;
      if (e.capability === 'ccos.user.ask') pendingConsent.push({ question: String(p.question ?? ''), answer: e.error ? 'no' : 'yes' });
      steps.push({
        n: steps.length + 1, ok: !e.error, capability: e.capability!, target: stepTarget(p), ms: e.duration_ms ?? undefined,
        decision: e.decision ? `${e.decision.decision} (${e.decision.policy})` : undefined, error,
        consent: pendingConsent, blocked: [], heals: pendingHeals,
      });
      pendingConsent = [];
      pendingHeals = [];
      attachTrace(steps.at(-1)!, r);
    } else if (steps.length && e.kind === 'event' && (r.event === 'session_trace' || r.event === 'session_idle_closed')) {
      attachTrace(steps.at(-1)!, r);
    } else if (steps.length && e.kind === 'network_blocked') {
      steps.at(-1)!.blocked.push(...((r.hosts as string[] | undefined) ?? []).map(String), ...((r.examples as string[] | undefined) ?? []).map(String));
    } else if (steps.length && e.kind === 'event' && r.event === 'step_screenshot' && typeof r.path === 'string') {
      steps.at(-1)!.screenshot = r.path;
    }
  }
  return { title: run.label, chainPath, started: run.calls[0]?.ts, steps };
}

function attachTrace(step: ReportStep, r: Record<string, unknown>): void {
  if (typeof r.trace === 'string') step.trace = r.trace;
  if (typeof r.trace_dropped === 'string') step.traceNote = r.trace_dropped;
}
