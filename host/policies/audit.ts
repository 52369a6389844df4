// The outermost policy: every call, allowed or refused, ends as one causal
// chain entry. It sits outside the others so their denials are recorded too,
// and it appends BEFORE answering the caller, so an answer the caller acted on
// was written first. If the chain cannot be written the call fails ('internal',
// details.reason 'chain_unwritable') rather than succeeding unrecorded.
// A call that reached its effect already has a durable intent entry
// (write-ahead.ts), so its result entry is written without its own fdatasync:
// one fdatasync per call on the critical path, none for a read of the open page
// (chain.ts explains when it lands).
import { WebcapError, toWebcapError } from '../../manifests/errors.js';
import type { CausalChain, ChainAppend, ChainDecision } from '../chain/chain.js';
import type { Redactor } from '../redact/redactor.js';
import type { CallResult, Decision, Policy } from './types.js';

export function auditPolicy(chain: CausalChain, redactor: Redactor): Policy {
  return async (call, next) => {
    const started = performance.now();
    let result: CallResult | undefined;
    let failure: WebcapError | undefined;
    try {
      result = await next();
    } catch (err) {
      failure = toWebcapError(err);
    }
    // The caller and the chain get the message without what the call typed (it may be a password).
    if (failure) failure.message = redactor.redactCallMessage(call.manifest, call.params, failure.message);
    const decisions = call.decisions.map((d) => chainDecision(d, redactor));
    const denied = [...decisions].reverse().find((d) => d.decision === 'denied');
    const returnedSession = typeof result?.session === 'string' ? result.session : undefined;
    const entry: ChainAppend = {
      kind: 'call',
      plan_id: call.planId ?? null,
      session: call.session ?? returnedSession ?? null,
      capability: call.capability,
      params: redactor.redactCallParams(call.manifest, call.params, { failed: !!failure, result }),
      // The decision that settled it: the refusal, else the last policy that spoke.
      decision: failure ? denied ?? null : decisions.at(-1) ?? null,
      decisions,
      result: failure ? null : redactor.summarise(result),
      error: failure ? { code: failure.code, message: redactor.redactString(failure.message) } : null,
      duration_ms: Math.round(performance.now() - started),
      ...(call.via ? { via: call.via } : {}),
    };
    const intent = call.intentSeq;
    if (intent !== undefined) entry.intent_seq = intent;
    try {
      await chain.append(entry, { durable: intent === undefined });
    } catch (err) {
      // The write-ahead refusal already says the chain is unwritable and that nothing ran.
      if (failure?.details?.reason === 'chain_unwritable') throw failure;
      const why = err instanceof Error ? err.message : String(err);
      throw new WebcapError('internal', `${call.capability}: could not record the call in the causal chain (${why})`, {
        reason: 'chain_unwritable',
        chain: chain.path,
        ...(failure ? { call_error: failure.code } : {}),
      });
    }
    if (failure) throw failure;
    return result as CallResult;
  };
}

function chainDecision(d: Decision, redactor: Redactor): ChainDecision {
  return {
    decision: d.decision,
    policy: d.policy,
    reason: d.reason === undefined ? null : redactor.redactString(d.reason),
    ...(d.details ? { details: redactor.redact(d.details) } : {}),
  };
}
