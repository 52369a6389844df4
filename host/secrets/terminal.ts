// Where secret references meet the call path, innermost: a call that names a
// secret the vault does not hold either waits while a person enters it
// (missing.ts: only where the value can bypass the client and the model) or
// fails before it reaches the browser, saying which one and how to set it.
// Nothing is resolved here: the references go to the sidecar as they are,
// which asks for each value when its keys land (resolver.ts).
import { refsOfCall, splitRefs, type SecretRef } from '../../manifests/secrets/refs.js';
import type { WebcapConfig } from '../config/types.js';
import type { CallContext, CallResult } from '../policies/types.js';
import { findSecret, missingSecret } from './vault.js';

type Terminal = (call: CallContext) => Promise<CallResult>;

export interface MissingHandling {
  /** Asks a person for it; true once it is in the vault. */
  ask?: (ref: SecretRef, call: CallContext) => Promise<boolean>;
  /** The origin of the page the call is on, named in the error's `webcap secrets set` line. */
  originOf?: (call: CallContext) => string | undefined;
}

export function withSecrets(config: Pick<WebcapConfig, 'secrets'>, next: Terminal, missing: MissingHandling = {}): Terminal {
  return async (call) => {
    for (const ref of refsOfCall(call.capability, call.params)) {
      if (findSecret(config, ref.name)) continue;
      if (missing.ask && await missing.ask(ref, call) && findSecret(config, ref.name)) continue;
      throw missingSecret(config, ref.name, { kind: ref.kind, origin: missing.originOf?.(call) });
    }
    return next(call);
  };
}

/**
 * Typed text the sidecar reports (a secret field's contents, what a call
 * typed): only its literal parts are learnt as secrets. A reference is not a
 * secret, and learning one would hide the references the chain must show.
 */
export function learnLiterals(text: string, learn: (value: string) => void): void {
  for (const part of splitRefs(text)) if (typeof part === 'string') learn(part);
}
