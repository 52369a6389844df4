// The causal-chain entry and its hash, shared by the writer (chain.ts) and the
// checker (verify.ts) so both hash exactly the same bytes.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

// intent: written (durably) before a call's effect starts; its `call` entry follows.
// checkpoint: a signed (count, head hash, time), see checkpoint.ts.
// healed: a replay found a recorded element by its fingerprint (host/replay/heal.ts).
export type ChainKind = 'call' | 'decision' | 'network_blocked' | 'consent' | 'event' | 'plan' | 'intent' | 'checkpoint' | 'healed';

export interface ChainDecision {
  decision: string;
  policy: string;
  reason: string | null;
  details?: Record<string, unknown>;
}

export interface ChainError {
  code: string;
  message: string;
}

export interface ChainEntry {
  seq: number;
  ts: string;
  kind: ChainKind;
  plan_id: string | null;
  session: string | null;
  capability: string | null;
  /** Already redacted by the caller: the chain stores what it is given. */
  params: unknown;
  /** The decision that settled the call (the denying one, or the last one). */
  decision: ChainDecision | null;
  /** Every policy decision taken on the way, in order. */
  decisions: ChainDecision[];
  /** A redacted, truncated summary (Redactor.summarise), not the raw result. */
  result: unknown;
  error: ChainError | null;
  duration_ms: number | null;
  /** Where the call came from / went (e.g. {mcp_session, provider}); absent for plain local calls. */
  via?: Record<string, string>;
  /** On a `call` entry whose call got as far as its effect: the seq of its `intent` entry. Absent otherwise. */
  intent_seq?: number;
  prev_hash: string;
  hash: string;
}

/** What a caller passes to append(): the chain fills seq, ts, prev_hash and hash. */
export type ChainAppend = { kind: ChainKind } & Partial<Omit<ChainEntry, 'seq' | 'ts' | 'kind' | 'prev_hash' | 'hash'>>;

export const ZERO_HASH = '0'.repeat(64);

/** sha256 hex over the RFC 8785 canonical JSON of the entry minus its `hash` field. */
export function hashEntry(entry: Omit<ChainEntry, 'hash'> | ChainEntry): string {
  const { hash: _ignored, ...body } = entry as ChainEntry;
  const text = canonicalize(body);
  if (text === undefined) throw new Error('causal chain: entry is not serialisable');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// Lone surrogates (e.g. a page string cut mid-emoji) make canonicalize throw
// and would not survive a JSON round trip byte-for-byte, so they become U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A JSON round trip: drops undefined, applies toJSON (Date, URL, errors), turns
 * NaN/Infinity into null. What is hashed is then exactly what verify() re-reads.
 */
export function toPlainJson(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? v.replace(LONE_SURROGATE, '\uFFFD') : v));
  return text === undefined ? null : JSON.parse(text);
}
