// Write-ahead: a call that passed the checks that need no connection
// (enabled, schema, allowlist, SSRF) gets an `intent` entry in the causal
// chain, durable (fdatasync) BEFORE anything acts: before Chromium is warmed
// up, robots.txt is fetched, the user is asked, or the call runs. If the chain
// cannot take it (full or read-only disk, a lock held too long), the call
// stops here and nothing happens. The audit policy then writes the call's
// result entry, pointing back with `intent_seq` (the call carries it: call.intentSeq).
// A call that only reads the page a session already shows (web.snapshot,
// web.extract, web.wait…: every effect is "browser") changes nothing a crash
// could leave unrecorded: its intent is written before it runs, as every intent
// is (a reader of the chain sees it under way; a write the disk refuses still
// stops it), but not fdatasync'd
// first; it and the result entry reach the disk with the next durable append,
// within LAZY_SYNC_MS, or at close. No fdatasync on a read's critical path.
import { readsOpenPageOnly } from '../../manifests/effects.js';
import { WebcapError } from '../../manifests/errors.js';
import type { CausalChain } from '../chain/chain.js';
import type { Redactor } from '../redact/redactor.js';
import type { Policy } from './types.js';

// What a call targets is kept in its intent; text it will type or send is not.
// A secret can be learned only while the call runs (a field turns out to be a
// password), after its intent is on disk, so the intent withholds free text
// and the result entry (redacted with everything learned) carries it.
const TARGET_KEYS = new Set(['url', 'selector', 'session', 'tab', 'path', 'format', 'policy', 'by', 'role']);
export const WITHHELD = '[withheld: see the result entry]';

function intentParams(params: unknown): unknown {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return params;
  return Object.fromEntries(Object.entries(params as Record<string, unknown>).map(([k, v]) => [k, TARGET_KEYS.has(k) || isScalar(v) ? v : WITHHELD]));
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v === 'number' || typeof v === 'boolean';
}

export function writeAheadPolicy(chain: CausalChain, redactor: Redactor): Policy {
  return async (call, next) => {
    try {
      const entry = await chain.append({
        kind: 'intent',
        plan_id: call.planId ?? null,
        session: call.session ?? null,
        capability: call.capability,
        params: intentParams(redactor.redactParams(call.manifest, call.params)),
        decisions: call.decisions.map((d) => ({ decision: d.decision, policy: d.policy, reason: d.reason === undefined ? null : redactor.redactString(d.reason) })),
        ...(call.via ? { via: call.via } : {}),
      }, { durable: !readsOpenPageOnly(call.manifest.effects) });
      call.intentSeq = entry.seq; // the audit policy's result entry points back to it
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const details = err instanceof WebcapError ? err.details : {};
      throw new WebcapError('internal', `${call.capability}: not run: its intent could not be recorded in the causal chain, so nothing was done (${why})`, {
        ...details, reason: 'chain_unwritable', chain: chain.path,
      });
    }
    return next();
  };
}
