// Test helper: what a tamperer who knows the hash rule can do.
import { hashEntry } from '../../../host/chain/entry.js';

/** A consistent rewrite: entry `from` edited and every hash from there on recomputed. */
export function rehashedFrom(lines: string[], from: number): string[] {
  let prev = from === 0 ? '0'.repeat(64) : JSON.parse(lines[from - 1]).hash;
  return lines.map((l, i) => {
    if (i < from) return l;
    const e = JSON.parse(l);
    if (i === from) e.params = { selector: '.rewritten' };
    e.prev_hash = prev;
    delete e.hash;
    e.hash = hashEntry(e);
    prev = e.hash;
    return JSON.stringify(e);
  });
}
