// The report reads the chain as data from a stranger: an entry is used only
// once every field it has is of the type webcap writes (numbers, strings,
// null, objects where objects belong). An entry that is not is left out of
// the run and listed in the report as invalid, with the field named, never
// its value.
import type { RawEntry } from '../replay/chain-calls.js';

interface ReportDecision { decision: string; policy: string; reason: string | null }

/** A chain entry whose fields have been checked. */
export interface CheckedEntry extends RawEntry {
  seq: number; ts: string; kind: string; plan_id: string | null; session: string | null; capability: string | null;
  params: Record<string, unknown> | null; error: { code: string; message: string } | null;
  decision: ReportDecision | null; decisions: ReportDecision[]; duration_ms: number | null;
}

export interface InvalidEntry { position: number; seq: number | null; problem: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => typeof v === 'string';
const strOrNull = (v: unknown) => v === null || v === undefined || typeof v === 'string';
const isDecision = (v: unknown) => isObject(v) && str(v.decision) && str(v.policy) && strOrNull(v.reason);

const CHECKS: Array<[string, (v: unknown) => boolean, string]> = [
  ['seq', (v) => Number.isInteger(v), 'a whole number'],
  ['ts', str, 'a string'],
  ['kind', str, 'a string'],
  ['plan_id', strOrNull, 'a string or null'],
  ['session', strOrNull, 'a string or null'],
  ['capability', strOrNull, 'a string or null'],
  ['params', (v) => v === null || v === undefined || isObject(v), 'an object or null'],
  ['error', (v) => v === null || v === undefined || (isObject(v) && str(v.code) && str(v.message)), 'null or {code, message} strings'],
  ['decision', (v) => v === null || v === undefined || isDecision(v), 'null or {decision, policy, reason} strings'],
  ['decisions', (v) => v === undefined || (Array.isArray(v) && v.every(isDecision)), 'a list of decisions'],
  ['duration_ms', (v) => v === null || v === undefined || (typeof v === 'number' && Number.isFinite(v)), 'a number or null'],
  ['call_id', (v) => v === undefined || str(v), 'a string'],
];

/** The checked entry, or the first field of the wrong type. */
function checkEntry(raw: RawEntry): CheckedEntry | { problem: string } {
  for (const [field, ok, expected] of CHECKS) if (!ok(raw[field])) return { problem: `field "${field}" must be ${expected}` };
  return {
    ...raw,
    plan_id: raw.plan_id ?? null, session: raw.session ?? null, capability: raw.capability ?? null,
    params: (raw.params ?? null) as CheckedEntry['params'], error: (raw.error ?? null) as CheckedEntry['error'],
    decision: (raw.decision ?? null) as ReportDecision | null, decisions: (raw.decisions ?? []) as ReportDecision[],
    duration_ms: raw.duration_ms ?? null,
  } as CheckedEntry;
}

/** Splits the chain's entries into those the report may use and those it lists as invalid. */
export function checkEntries(raw: RawEntry[]): { entries: CheckedEntry[]; invalid: InvalidEntry[] } {
  const entries: CheckedEntry[] = [];
  const invalid: InvalidEntry[] = [];
  raw.forEach((e, i) => {
    const checked = checkEntry(e);
    if ('problem' in checked) invalid.push({ position: i + 1, seq: Number.isInteger(e.seq) ? e.seq as number : null, problem: (checked as { problem: string }).problem });
    else entries.push(checked);
  });
  return { entries, invalid };
}

/**
 * Which policy decided a step, where one did: a refusal, a user's answer, a
 * polite wait, webcap's own clean-up. A call every policy simply let through
 * was decided by none of them, and says nothing.
 */
export function decidedBy(e: CheckedEntry): string | undefined {
  const all = e.decisions.length ? e.decisions : e.decision ? [e.decision] : [];
  const denied = all.find((d) => d.decision === 'denied') ?? (e.decision?.decision === 'denied' ? e.decision : undefined);
  if (denied) return `denied by ${denied.policy}${denied.reason ? `: ${denied.reason}` : ''}`;
  const consent = all.find((d) => d.policy === 'consent');
  if (consent) return `approved by consent${consent.reason ? `: ${consent.reason}` : ''}`;
  const waited = all.find((d) => d.decision === 'waited');
  if (waited) return `${waited.policy}: ${waited.reason ?? 'waited'}`;
  if (e.decision?.policy === 'plan_cleanup') return 'plan clean-up';
  return undefined;
}
