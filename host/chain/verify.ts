// Checks a causal-chain file: each entry's own hash, its seq (1, 2, 3, …) and
// its prev_hash link to the entry before. Reports the FIRST bad entry so a user
// knows where tampering (or corruption) starts.
//
// Torn lines (a crash mid-write, see chain.ts) are skipped, but only when they
// cannot be a damaged entry: the fragment must not contain a complete JSON
// object, and the next entry must link to the entry before the fragment.
// Limits: deleting the LAST entries is a clean truncation and cannot be seen
// from the file alone; compare `last_hash` with a copy kept elsewhere.
import { readFileSync } from 'node:fs';
import { hashEntry, ZERO_HASH, type ChainEntry } from './entry.js';
import { parseEntry } from './tail.js';

export type VerifyResult =
  | { ok: true; entries: number; last_hash: string; torn_lines: number[] }
  /** bad_seq: the seq the bad line claims, or the seq expected there if the line is unreadable. line: 1-based. */
  | { ok: false; bad_seq: number; line: number; reason: string };

export function verifyChain(path: string): VerifyResult {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline || text === '') lines.pop();
  let expectedSeq = 1;
  let prevHash = ZERO_HASH;
  let pending: number[] = []; // skipped fragments awaiting the next entry's confirmation
  const torn: number[] = [];
  const bad = (line: number, seq: number, reason: string): VerifyResult => ({ ok: false, bad_seq: seq, line, reason });

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i];
    const entry = parseEntry(raw);
    if (!entry) {
      if (!looksTorn(raw)) return bad(lineNo, expectedSeq, 'not a chain entry (edited or foreign line)');
      pending.push(lineNo); // repeated crashes can leave several fragments in a row
      continue;
    }
    // A fragment counts as torn only if the chain resumes exactly where it was cut.
    const blame = (reason: string) => (pending.length > 0
      ? bad(pending[0], expectedSeq, 'unreadable line (the next entry does not continue the chain)')
      : bad(lineNo, entry.seq, reason));
    if (entry.hash !== safeHash(entry)) return blame(`hash mismatch: entry #${entry.seq} was edited`);
    if (entry.seq !== expectedSeq) {
      const why = entry.seq > expectedSeq ? `entries #${expectedSeq}..#${entry.seq - 1} missing (deleted)` : 'inserted, repeated or moved';
      return blame(`seq ${entry.seq} where #${expectedSeq} was expected: ${why}`);
    }
    if (entry.prev_hash !== prevHash) return blame(`prev_hash does not match entry #${expectedSeq - 1}'s hash (inserted or moved)`);
    torn.push(...pending);
    pending = [];
    prevHash = entry.hash;
    expectedSeq++;
  }
  if (pending.length > 0) {
    // Only a crash mid-write leaves fragments after the last entry, and the very
    // last one is then unterminated.
    if (endsWithNewline) return bad(pending[0], expectedSeq, 'unreadable line');
    torn.push(...pending);
  }
  return { ok: true, entries: expectedSeq - 1, last_hash: prevHash, torn_lines: torn };
}

/** The entries of a chain file in order, torn fragments left out (for `chain show`). */
export function readEntries(path: string): ChainEntry[] {
  return readFileSync(path, 'utf8').split('\n').map(parseEntry).filter((e): e is ChainEntry => e !== null);
}

function safeHash(entry: ChainEntry): string | null {
  try { return hashEntry(entry); } catch { return null; }
}

// A torn write is a strict prefix of a line: it never holds a complete JSON
// object, so a whole entry with bytes appended is tampering, not a crash.
function looksTorn(raw: string): boolean {
  if (raw.length === 0) return true; // a failed write may leave just the separator
  if (!raw.startsWith('{')) return false;
  for (let i = raw.indexOf('}'); i !== -1; i = raw.indexOf('}', i + 1)) {
    try { JSON.parse(raw.slice(0, i + 1)); return false; } catch { /* keep looking */ }
  }
  return true;
}
