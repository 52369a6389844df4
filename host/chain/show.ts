// `webcap chain show`: the chain as a timeline a person can scan, one line per
// entry, columns aligned, newest last.
import type { ChainEntry } from './entry.js';
import { readEntries } from './verify.js';

const SUMMARY_CHARS = 100;

export function formatChain(entries: ChainEntry[]): string {
  const rows = entries.map((e) => [
    `#${e.seq}`,
    timeOf(e.ts),
    e.plan_id ?? '-',
    e.session ?? '-',
    e.capability ?? e.kind,
    outcome(e),
    e.duration_ms === null || e.duration_ms === undefined ? '-' : `${e.duration_ms}ms`,
    summary(e),
  ]);
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  // The summary is free text: it is never padded.
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]) : c)).join('  ').trimEnd()).join('\n');
}

export function showChain(path: string): string {
  return formatChain(readEntries(path));
}

// ts is ISO-8601 UTC; the wall-clock part is what a reader correlates with logs.
function timeOf(ts: string): string {
  return /T(\d\d:\d\d:\d\d\.\d{3})/.exec(ts)?.[1] ?? ts;
}

function outcome(e: ChainEntry): string {
  if (e.error) {
    const by = e.decision?.decision === 'denied' ? ` (${e.decision.policy})` : '';
    return `✗ ${e.error.code}${by}`;
  }
  if (e.decision?.decision === 'denied') return `✗ denied (${e.decision.policy})`;
  return `✓ ${e.decision ? `${e.decision.decision} (${e.decision.policy})` : e.kind === 'call' ? 'ok' : e.kind}`;
}

function summary(e: ChainEntry): string {
  const text = e.error ? e.error.message : e.result === null || e.result === undefined ? '' : JSON.stringify(e.result);
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat;
}
