// Turns the calls of a recorded run into an RTFS plan that does them again:
// successful calls in order (failed and denied ones named in comments), refs
// replaced by selectors from their fingerprints, typed values lifted into
// {{name}} inputs, and a web.wait before each element action that had none.
import { rtfsValue } from '../discovery/rtfs-writer.js';
import type { RawEntry } from './chain-calls.js';
import { EXPORT_MARK, type PlanInput } from './inputs.js';

/** Calls that only look at the page: an agent's exploration, not part of the task. */
const OBSERVATION = new Set(['web.snapshot', 'web.page_content', 'web.query_elements', 'web.find_by_text', 'web.status', 'web.url', 'web.console', 'web.plan_export']);
export const ELEMENT_ACTIONS = new Set(['web.click', 'web.fill', 'web.type', 'web.select', 'web.hover', 'web.keypress', 'web.upload']);
const TYPED = new Set(['web.fill', 'web.type']);
const REDACTED = '[REDACTED]';

export interface WrittenExport { plan: string; inputs: PlanInput[]; steps: number; left_out: number }

type Fp = Record<string, unknown> & { css?: string; label?: string; name_attr?: string; placeholder?: string; id?: string; name?: string; secret?: boolean };

export function writeExportedPlan(calls: RawEntry[], source: string): WrittenExport {
  const body: string[] = [];
  const notes: string[] = [];
  const inputs: PlanInput[] = [];
  const extracts: string[] = [];
  let observed = 0;
  let lastWasWaitFor: string | undefined;
  calls.forEach((e, i) => {
    const cap = e.capability!;
    const n = i + 1;
    if (e.decision?.policy === 'plan_cleanup') return;
    if (e.error) {
      notes.push(`;; left out: call ${n} ${cap} ${e.decision?.decision === 'denied' ? 'denied' : 'failed'} (${e.error.code ?? 'error'}: ${oneLine(e.error.message ?? '')})`);
      return;
    }
    if (OBSERVATION.has(cap)) { observed++; return; }
    let params = { ...(e.params as Record<string, unknown> ?? {}) };
    delete params.session;
    const result = (e.result ?? {}) as Record<string, unknown>;
    const fp = result.fingerprint as Fp | undefined;
    if (typeof params.ref === 'string') {
      if (!fp?.css) { notes.push(`;; left out: call ${n} ${cap} on ref ${params.ref} (no fingerprint recorded to find it again)`); return; }
      const { ref: _ref, ...rest } = params;
      params = { selector: fp.css, ...rest };
    }
    if (TYPED.has(cap) && typeof params.text === 'string' || cap === 'web.type') {
      const input = liftInput(params, result, fp, inputs);
      params.text = `{{${input.name}}}`;
    }
    const selector = typeof params.selector === 'string' ? params.selector : undefined;
    if (ELEMENT_ACTIONS.has(cap) && selector && lastWasWaitFor !== selector) {
      body.push(`(call :web.wait ${rtfsValue({ selector })}${healOptions(fp)})`);
    }
    lastWasWaitFor = cap === 'web.wait' && typeof params.selector === 'string' ? params.selector : undefined;
    // A recorded wait for the element the next action acts on heals with that action's fingerprint.
    const waitFp = cap === 'web.wait' && selector ? nextFingerprint(calls, i, selector) : undefined;
    const options = ELEMENT_ACTIONS.has(cap) && selector ? healOptions(fp) : healOptions(waitFp);
    const text = `(call :${cap} ${rtfsValue(params)}${options})`;
    if (cap === 'web.extract') {
      const name = `extract_${extracts.length + 1}`;
      extracts.push(name);
      body.push(`${name} ${text}`);
    } else body.push(text);
  });
  if (observed) notes.push(`;; left out: ${observed} observation call(s) (snapshot, page content, queries)`);
  const header = [
    `;; ${EXPORT_MARK} — exported from ${source}`,
    ';; Replays the successful calls in order; element actions heal their selector from the recorded fingerprint.',
    ...inputs.map((inp) => `;; input ${inp.name}${inp.required ? ' (required)' : ` = ${JSON.stringify(inp.default)}`}${inp.about ? `  ; ${inp.about}` : ''}`),
    ...notes,
  ];
  const returns = extracts.length === 0 ? 'nil' : extracts.length === 1 ? `(get ${extracts[0]} :items)` : `[${extracts.map((x) => `(get ${x} :items)`).join(' ')}]`;
  // Sequential let bindings keep each call on its own line and name what the plan returns.
  const bindings = body.map((b) => (b.startsWith('extract_') ? b : `_ ${b}`));
  const plan = `${header.join('\n')}\n(let [${bindings.join('\n      ')}]\n  ${returns})\n`;
  return { plan, inputs, steps: body.length, left_out: notes.length };
}

function nextFingerprint(calls: RawEntry[], from: number, selector: string): Fp | undefined {
  for (const e of calls.slice(from + 1)) {
    if (e.error || !ELEMENT_ACTIONS.has(e.capability ?? '')) continue;
    if ((e.params as { selector?: unknown } | null)?.selector !== selector) return undefined;
    return (e.result as { fingerprint?: Fp } | null)?.fingerprint;
  }
  return undefined;
}

function healOptions(fp: Fp | undefined): string {
  if (!fp) return '';
  const { secret: _s, ...kept } = fp;
  return ` ${rtfsValue({ heal: true, fingerprint: kept })}`;
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
