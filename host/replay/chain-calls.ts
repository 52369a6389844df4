// Reads the calls a run made out of a causal chain, for export and reports.
// Defensive on purpose: other kinds of entries (intents written ahead of a
// call, locks, checkpoints, events) are skipped or paired, never trusted to
// have a shape, so a chain written by a newer webcap still exports.
import { existsSync } from 'node:fs';
import { WebcapError } from '../../manifests/errors.js';
import { chainLines } from '../chain/verify.js';

/** One chain entry as export sees it: every field optional. */
export interface RawEntry {
  seq?: number; ts?: string; kind?: string; plan_id?: string | null; session?: string | null;
  capability?: string | null; params?: unknown; result?: unknown; error?: { code?: string; message?: string } | null;
  decision?: { decision?: string; policy?: string; reason?: string | null } | null; duration_ms?: number | null;
  call_id?: string; [k: string]: unknown;
}

export type Selection = { planId: string } | { session: string } | { last: true } | { afterSeq: number; label: string };

export function readChainEntries(path: string): RawEntry[] {
  if (!existsSync(path)) throw new WebcapError('invalid_params', `no chain file at ${path}`, { path });
  const out: RawEntry[] = [];
  for (const { text: line } of chainLines(path)) {
    if (!line.startsWith('{')) continue;
    try {
      const e = JSON.parse(line) as RawEntry;
      if (e && typeof e === 'object' && !Array.isArray(e)) out.push(e);
    } catch { /* a torn last line */ }
  }
  return out;
}

/** The session a call acted in: web.open's is the one it created (its entry names the one current before). */
export function sessionOf(e: RawEntry): string | undefined {
  const r = e.result as { session?: unknown } | null | undefined;
  if (e.capability === 'web.open' && typeof r?.session === 'string') return r.session;
  return e.session ?? (typeof r?.session === 'string' ? r.session : undefined);
}

const isCleanup = (e: RawEntry) => e.decision?.policy === 'plan_cleanup';

/**
 * Finished call entries, in order. An intent/result pair with the same call id
 * becomes its result; an intent whose result never came is dropped.
 */
export function finishedCalls(entries: RawEntry[]): RawEntry[] {
  const calls = entries.filter((e) => e.kind === 'call' && typeof e.capability === 'string');
  const lastById = new Map<string, RawEntry>();
  for (const e of calls) if (typeof e.call_id === 'string') lastById.set(e.call_id, e);
  return calls.filter((e) => {
    if (typeof e.call_id === 'string' && lastById.get(e.call_id) !== e) return false;
    return e.result !== undefined || e.error !== undefined;
  });
}

/** The calls of one run: a plan by id, a session's latest life, or the last run in the chain. */
export function selectRun(entries: RawEntry[], sel: Selection): { label: string; calls: RawEntry[]; all: RawEntry[] } {
  const calls = finishedCalls(entries);
  if ('last' in sel) {
    const last = [...calls].reverse().find((e) => !isCleanup(e) && e.capability !== 'webcap.report');
    if (!last) throw new WebcapError('invalid_params', 'the chain has no calls to export');
    return selectRun(entries, last.plan_id ? { planId: last.plan_id } : { session: sessionOf(last) ?? '' });
  }
  if ('afterSeq' in sel) {
    const picked = calls.filter((e) => (e.seq ?? 0) > sel.afterSeq);
    if (!picked.length) throw new WebcapError('invalid_params', `no calls after entry ${sel.afterSeq} in the chain`);
    return { label: sel.label, calls: picked, all: entries.filter((e) => (e.seq ?? 0) > sel.afterSeq) };
  }
  if ('planId' in sel) {
    const picked = calls.filter((e) => e.plan_id === sel.planId);
    if (!picked.length) throw new WebcapError('invalid_params', `no calls of plan ${sel.planId} in the chain`, { plan_id: sel.planId });
    return { label: `plan ${sel.planId}`, calls: picked, all: entries.filter((e) => e.plan_id === sel.planId) };
  }
  // Session names restart with each process: take the session's latest life, from the web.open that made it.
  const mine = calls.filter((e) => sessionOf(e) === sel.session && !e.plan_id);
  const opens = mine.map((e, i) => (e.capability === 'web.open' && !e.error ? i : -1)).filter((i) => i >= 0);
  const picked = mine.slice(opens.at(-1) ?? 0);
  // Calls made before the session existed (a ccos.user.ask before web.open) have no session: they lead into it.
  for (let i = calls.indexOf(picked[0]!) - 1; i >= 0 && !calls[i]!.session && !calls[i]!.plan_id && calls[i]!.capability !== 'web.open'; i--) picked.unshift(calls[i]!);
  if (!picked.length) throw new WebcapError('session_not_found', `no calls of session ${sel.session} in the chain`, { session: sel.session });
  const first = picked[0]!.seq ?? 0;
  const lastSeq = picked.at(-1)!.seq ?? Infinity;
  const all = entries.filter((e) => (e.seq ?? 0) >= first && (e.seq ?? 0) <= lastSeq + 1 && (!e.session || e.session === sel.session || e.kind === 'call' && picked.includes(e)));
  return { label: `session ${sel.session}`, calls: picked, all };
}
