// Checks a causal-chain file: each entry's own hash, its seq (1, 2, 3, …) and
// its prev_hash link to the entry before. Reports the FIRST bad line so a user
// knows where tampering (or corruption) starts.
//
// Every line is accounted for: the only line allowed not to be an entry is an
// unterminated last line (a write cut short by a crash, which the next writer
// cuts off and records, see chain.ts). Anything else is tampering.
// Anchors (what the file alone cannot show: a clean truncation or a consistent
// rewrite): `expectHead`, a head hash kept elsewhere, must still be in the
// chain; `publicKey` checks every signed checkpoint and `<chain>.head.json`
// (checkpoint.ts).
import type { KeyObject } from 'node:crypto';
import { WebcapError } from '../../manifests/errors.js';
import { isMissingFile, readJsonSafelySync, readLinesSafelySync } from '../files/safe-read.js';
import { asCheckpoint, checkSignature, headFileOf, keyIdOf, type Checkpoint } from './checkpoint.js';
import { hashEntry, ZERO_HASH, type ChainEntry } from './entry.js';
import { CHAIN_LINE_MAX_BYTES, HEAD_FILE_MAX_BYTES, parseEntry } from './tail.js';

interface VerifyOptions {
  /** A head hash recorded earlier: it must be the hash of some entry. */
  expectHead?: string;
  /** Checks signed checkpoints and the signed head file. */
  publicKey?: KeyObject;
}

type VerifyResult =
  | { ok: true; entries: number; last_hash: string; torn_lines: number[]; checkpoints: number; signed_through: number | null; after_last_checkpoint: number; after_expected?: number }
  /** bad_seq: the seq the bad line claims, or the seq expected there if the line is unreadable. line: 1-based (0: the file as a whole). */
  | { ok: false; bad_seq: number; line: number; reason: string };

export function verifyChain(path: string, options: VerifyOptions = {}): VerifyResult {
  let expectedSeq = 1;
  let prevHash = ZERO_HASH;
  let checkpoints = 0;
  let signedThrough: number | null = null;
  let lastCheckpoint = 0;
  let expectedAt: number | null = null;
  const head = options.publicKey ? readHead(path, options.publicKey) : null;
  if (head && 'error' in head) return { ok: false, bad_seq: 0, line: 0, reason: head.error };
  const bad = (line: number, seq: number, reason: string): VerifyResult => ({ ok: false, bad_seq: seq, line, reason });

  for (const { text: raw, n: lineNo, terminated } of chainLines(path)) {
    const entry = parseEntry(raw);
    if (!entry) {
      if (!terminated && looksTorn(raw)) return done([lineNo]);
      return bad(lineNo, expectedSeq, 'not a chain entry (edited, inserted or foreign line; only an unfinished last line is allowed)');
    }
    if (entry.hash !== safeHash(entry)) return bad(lineNo, entry.seq, `hash mismatch: entry #${entry.seq} was edited`);
    if (entry.seq !== expectedSeq) {
      const why = entry.seq > expectedSeq ? `entries #${expectedSeq}..#${entry.seq - 1} missing (deleted)` : 'inserted, repeated or moved';
      return bad(lineNo, entry.seq, `seq ${entry.seq} where #${expectedSeq} was expected: ${why}`);
    }
    if (entry.prev_hash !== prevHash) return bad(lineNo, entry.seq, `prev_hash does not match entry #${expectedSeq - 1}'s hash (inserted or moved)`);
    if (entry.kind === 'checkpoint') {
      checkpoints++;
      if (options.publicKey) {
        const why = checkpointProblem(asCheckpoint(entry.result), entry, options.publicKey);
        if (why) return bad(lineNo, entry.seq, why);
        signedThrough = entry.seq - 1;
        lastCheckpoint = entry.seq;
      }
    }
    if (head && !('error' in head) && entry.seq === head.count && entry.hash !== head.head) {
      return bad(lineNo, entry.seq, `entry #${entry.seq} is not the one the signed head (${headFileOf(path)}) covers: the chain was rewritten`);
    }
    if (options.expectHead && entry.hash === options.expectHead) expectedAt = entry.seq;
    prevHash = entry.hash;
    expectedSeq++;
  }
  return done([]);

  function done(torn: number[]): VerifyResult {
    const entries = expectedSeq - 1;
    if (head && !('error' in head) && head.count > entries) {
      return bad(0, entries + 1, `truncated: the signed head (${headFileOf(path)}) covers ${head.count} entries, the file has ${entries}`);
    }
    if (options.expectHead && expectedAt === null) {
      return bad(0, entries, `expected head ${options.expectHead} is not in the chain: it was truncated or rewritten`);
    }
    return {
      ok: true, entries, last_hash: prevHash, torn_lines: torn, checkpoints, signed_through: signedThrough, after_last_checkpoint: entries - lastCheckpoint,
      ...(expectedAt === null ? {} : { after_expected: entries - expectedAt }),
    };
  }
}

function checkpointProblem(c: Checkpoint | null, entry: ChainEntry, key: KeyObject): string | null {
  if (!c) return `checkpoint #${entry.seq} is malformed`;
  if (c.key_id && c.key_id !== keyIdOf(key)) return `checkpoint #${entry.seq} was signed by key ${c.key_id}, not by the given public key (${keyIdOf(key)})`;
  if (!checkSignature(c, key)) return `checkpoint #${entry.seq}: bad signature (forged or altered)`;
  if (c.count !== entry.seq - 1 || c.head !== entry.prev_hash) return `checkpoint #${entry.seq}: the signed head (#${c.count} ${c.head.slice(0, 12)}…) is not the entry before it: the chain was rewritten`;
  return null;
}

function readHead(chainPath: string, key: KeyObject): Checkpoint | { error: string } {
  const file = headFileOf(chainPath);
  let c: Checkpoint | null = null;
  try {
    c = asCheckpoint(readJsonSafelySync(file, { what: 'signed head file', maxBytes: HEAD_FILE_MAX_BYTES }));
  } catch (err) {
    if (isMissingFile(err)) return { error: `no signed head file ${file}: with --public-key the latest signed checkpoint must be there (deleted, or the chain was never signed)` };
    return { error: (err as WebcapError).message };
  }
  if (!c) return { error: `${file} is not a signed checkpoint` };
  if (!checkSignature(c, key)) return { error: `${file}: bad signature (forged, altered, or signed by another key)` };
  return c;
}

/** The entries of a chain file in order, a torn last line left out (for `chain show`). */
export function readEntries(path: string): ChainEntry[] {
  const out: ChainEntry[] = [];
  for (const line of chainLines(path)) {
    const e = parseEntry(line.text);
    if (e) out.push(e);
  }
  return out;
}

/** The chain's lines through the safe reader: never through a link, each line bounded. */
export function chainLines(path: string): Generator<{ text: string; n: number; terminated: boolean }> {
  return readLinesSafelySync(path, { what: 'causal chain', maxBytes: CHAIN_LINE_MAX_BYTES });
}

function safeHash(entry: ChainEntry): string | null {
  try { return hashEntry(entry); } catch { return null; }
}

// A torn write is a strict prefix of a line: it never holds a complete JSON
// object, so a whole entry with bytes appended is tampering, not a crash.
function looksTorn(raw: string): boolean {
  if (!raw.startsWith('{')) return false;
  for (let i = raw.indexOf('}'); i !== -1; i = raw.indexOf('}', i + 1)) {
    try { JSON.parse(raw.slice(0, i + 1)); return false; } catch { /* keep looking */ }
  }
  return true;
}
