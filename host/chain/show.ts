// `webcap chain show`: the chain as a timeline a person can scan, one line per
// entry under a header row, columns aligned, newest last: when (date and
// time, UTC), what was called on what (the url/selector, as redacted in the
// chain), how it ended, and which policy decided it.
import type { ChainEntry } from './entry.js';
import { readEntries } from './verify.js';

const SUMMARY_CHARS = 100;
const TARGET_CHARS = 50;
const HEADER = ['#', 'DATE', 'TIME (UTC)', 'PLAN', 'SESSION', 'CAPABILITY', 'TARGET', 'OUTCOME', 'DECIDED BY', 'MS', 'DETAIL'];

export function formatChain(chain: ChainEntry[]): string {
  // One line per call: an intent whose result entry follows is that call's first half.
  const answered = new Set(chain.map((e) => e.intent_seq).filter((s): s is number => typeof s === 'number'));
  const entries = chain.filter((e) => e.kind !== 'intent' || !answered.has(e.seq));
  const rows = entries.map((e) => [
    `#${e.seq}`,
    e.ts.slice(0, 10),
    timeOf(e.ts),
    e.plan_id ?? '-',
    e.session ?? '-',
    e.capability ?? e.kind,
    target(e),
    outcome(e),
    e.decision?.policy ? `${e.decision.policy} policy` : '-',
    e.duration_ms === null || e.duration_ms === undefined ? '-' : `${e.duration_ms}ms`,
    summary(e),
  ]);
  const all = [HEADER, ...rows];
  const widths = all.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  // The summary is free text: it is never padded.
  return all.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]) : c)).join('  ').trimEnd()).join('\n');
}

export function showChain(path: string): string {
  return formatChain(readEntries(path));
}

// ts is ISO-8601 UTC; the wall-clock part is what a reader correlates with logs.
function timeOf(ts: string): string {
  return /T(\d\d:\d\d:\d\d\.\d{3})/.exec(ts)?.[1] ?? ts;
}

/** The call's main parameter: what it acted on. */
function target(e: ChainEntry): string {
  const p = (e.params ?? {}) as Record<string, unknown>;
  const t = p.url ?? p.selector ?? p.question ?? p.query ?? p.keys ?? p.origin ?? p.text;
  if (t === undefined || t === null) return '-';
  const s = typeof t === 'string' ? t : JSON.stringify(t);
  return s.length > TARGET_CHARS ? `${s.slice(0, TARGET_CHARS - 1)}…` : s;
}

function outcome(e: ChainEntry): string {
  if (e.kind === 'intent') return '⋯ no result entry (interrupted)';
  if (e.error) return `✗ ${e.error.code}`;
  if (e.decision?.decision === 'denied') return '✗ denied';
  return `✓ ${e.decision ? e.decision.decision : e.kind === 'call' ? 'ok' : e.kind}`;
}

function summary(e: ChainEntry): string {
  const text = e.error ? e.error.message : e.result === null || e.result === undefined ? '' : JSON.stringify(e.result);
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat;
}
