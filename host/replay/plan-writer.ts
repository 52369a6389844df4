// Turns the calls of a recorded run into an RTFS plan that does them again:
// successful calls in order (failed and denied ones named in comments), refs
// replaced by selectors from their fingerprints, typed values lifted into
// {{name}} inputs, and a web.wait before each element action that had none.
// Every recorded value reaches the text through the RTFS printer (quoted,
// escaped, comments on one line), so nothing a page or a caller chose can
// become a form of the plan.
import { call, data, InputRef, kw, list, printPlan, quote, str, sym, vec, type Code, type TextPart } from '../rtfs/printer.js';
import type { RawEntry } from './chain-calls.js';
import { EXPORT_MARK, type PlanInput } from './inputs.js';

/** Calls that only look at the page: an agent's exploration, not part of the task. */
const OBSERVATION = new Set(['web.snapshot', 'web.page_content', 'web.query_elements', 'web.find_by_text', 'web.status', 'web.url', 'web.console', 'web.plan_export']);
const ELEMENT_ACTIONS = new Set(['web.click', 'web.fill', 'web.type', 'web.select', 'web.hover', 'web.keypress', 'web.upload']);
const TYPED = new Set(['web.fill', 'web.type']);
const REDACTED = '[REDACTED]';

export interface WrittenExport { plan: string; inputs: PlanInput[]; steps: number; left_out: number }

type Fp = Record<string, unknown> & { frame?: string; css?: string; label?: string; name_attr?: string; placeholder?: string; id?: string; name?: string; secret?: boolean };

interface Step { cap: string; params: Record<string, unknown>; options?: Record<string, unknown>; bind?: string }

export function writeExportedPlan(calls: RawEntry[], source: string): WrittenExport {
  const steps: Step[] = [];
  const notes: string[] = [];
  const inputs: PlanInput[] = [];
  let extracts = 0;
  let observed = 0;
  let lastWasWaitFor: string | undefined;
  calls.forEach((e, i) => {
    const cap = e.capability!;
    const n = i + 1;
    if (e.decision?.policy === 'plan_cleanup') return;
    if (e.error) {
      notes.push(`left out: call ${n} ${cap} ${e.decision?.decision === 'denied' ? 'denied' : 'failed'} (${e.error.code ?? 'error'}: ${oneLine(e.error.message ?? '')})`);
      return;
    }
    if (OBSERVATION.has(cap)) { observed++; return; }
    let params: Record<string, unknown> = { ...(e.params as Record<string, unknown> ?? {}) };
    delete params.session;
    const result = (e.result ?? {}) as Record<string, unknown>;
    const fp = result.fingerprint as Fp | undefined;
    if (typeof params.ref === 'string') {
      // A snapshot ref inside an iframe (f1e3): its CSS path is the frame's, addressed through the iframe the fingerprint names.
      const framed = /^f\d+e\d+$/.test(params.ref);
      if (framed && typeof fp?.frame !== 'string') { notes.push(`left out: call ${n} ${cap} on ref ${params.ref} inside a nested iframe (exported plans address one frame level; add this step by hand)`); return; }
      if (!fp?.css) { notes.push(`left out: call ${n} ${cap} on ref ${params.ref} (no fingerprint recorded to find it again)`); return; }
      const { ref: _ref, ...rest } = params;
      params = { selector: fp.css, ...(framed ? { frame: fp.frame } : {}), ...rest };
    }
    if (TYPED.has(cap) && typeof params.text === 'string' || cap === 'web.type') {
      params.text = new InputRef(liftInput(params, result, fp, inputs).name);
    }
    const selector = typeof params.selector === 'string' ? params.selector : undefined;
    const frame = typeof params.frame === 'string' ? { frame: params.frame } : {};
    const waitKey = selector && JSON.stringify([selector, frame.frame ?? null]);
    if (ELEMENT_ACTIONS.has(cap) && selector && lastWasWaitFor !== waitKey) {
      steps.push({ cap: 'web.wait', params: { selector, ...frame }, options: healOptions(fp) });
    }
    lastWasWaitFor = cap === 'web.wait' ? waitKey : undefined;
    // A recorded wait for the element the next action acts on heals with that action's fingerprint.
    const waitFp = cap === 'web.wait' && selector ? nextFingerprint(calls, i, selector) : undefined;
    const options = ELEMENT_ACTIONS.has(cap) && selector ? healOptions(fp) : healOptions(waitFp);
    steps.push({ cap, params, options, ...(cap === 'web.extract' ? { bind: `extract_${++extracts}` } : {}) });
  });
  if (observed) notes.push(`left out: ${observed} observation call(s) (snapshot, page content, queries)`);
  const header = [
    `${EXPORT_MARK} — exported from ${source}`,
    'Replays the successful calls in order; element actions heal their selector from the recorded fingerprint.',
    ...inputs.map((inp) => `input ${inp.name}${inp.required ? ' (required)' : ` = ${quote([inp.default ?? ''])}`}${inp.about ? `  ; ${inp.about}` : ''}`),
    ...notes,
  ];
  const named = steps.filter((st) => st.bind).map((st) => list([sym('get'), sym(st.bind!), kw('items')]));
  const returns: Code = named.length === 0 ? data(null) : named.length === 1 ? named[0]! : vec(named);
  // Sequential let bindings keep each call on its own line and name what the plan returns.
  const bindings = steps.flatMap((st) => [sym(st.bind ?? '_'), call(st.cap, asked(st, inputs), st.options)]);
  const plan = printPlan(header, [list([sym('let'), vec(bindings, true), returns], 2)]);
  return { plan, inputs, steps: steps.length, left_out: notes.length };
}

/**
 * A question the recording asked (ccos.user.ask) names the values it was
 * about: where a lifted input's recorded value appears in it, the replay asks
 * with the value in use ({{name}}), not the recorded one.
 */
function asked(st: Step, inputs: PlanInput[]): Record<string, unknown> {
  const q = st.params.question;
  if (st.cap !== 'ccos.user.ask' || typeof q !== 'string') return st.params;
  let parts: TextPart[] = [q];
  for (const inp of inputs) {
    if (inp.required || !inp.default || inp.default.length < 2) continue;
    parts = parts.flatMap((p) => (typeof p !== 'string' ? [p] : p.split(inp.default!).flatMap((t, i) => (i ? [new InputRef(inp.name), t] : [t]))));
  }
  return { ...st.params, question: str(...parts.filter((p) => p !== '')) };
}

function nextFingerprint(calls: RawEntry[], from: number, selector: string): Fp | undefined {
  for (const e of calls.slice(from + 1)) {
    if (e.error || !ELEMENT_ACTIONS.has(e.capability ?? '')) continue;
    if ((e.params as { selector?: unknown } | null)?.selector !== selector) return undefined;
    return (e.result as { fingerprint?: Fp } | null)?.fingerprint;
  }
  return undefined;
}

function healOptions(fp: Fp | undefined): Record<string, unknown> | undefined {
  if (!fp) return undefined;
  const { secret: _s, ...kept } = fp;
  return { heal: true, fingerprint: kept };
}

/** The input a typed value becomes: named from the field's label, name, placeholder or id. */
function liftInput(params: Record<string, unknown>, result: Record<string, unknown>, fp: Fp | undefined, inputs: PlanInput[]): PlanInput {
  const base = slug(fp?.label ?? fp?.name_attr ?? fp?.placeholder ?? fp?.id ?? fp?.name ?? 'value') || 'value';
  let name = base;
  for (let k = 2; inputs.some((x) => x.name === name); k++) name = `${base}_${k}`;
  const text = typeof params.text === 'string' ? params.text : undefined;
  const secret = fp?.secret === true || text === undefined || text.includes(REDACTED) || result.value === REDACTED || result.field === 'password';
  const input: PlanInput = secret ? { name, required: true } : { name, required: false, default: text };
  input.about = fp?.label ?? fp?.placeholder ?? fp?.name_attr ?? undefined;
  if (secret) input.about = `${input.about ?? 'field'} (secret: never written)`;
  inputs.push(input);
  return input;
}

export function slug(s: string): string {
  return s.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().toLowerCase().replace(/[\s-]+/g, '_').replace(/^(\d)/, '_$1').slice(0, 40);
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
