// Where secret references meet the call path, innermost: a call that names a
// secret the vault does not hold fails before it reaches the browser, saying
// which one and how to set it. Nothing is resolved here: the references go to
// the sidecar as they are, which asks for each value when its keys land
// (resolver.ts).
import { refsOfCall, splitRefs } from '../../manifests/secrets/refs.js';
import type { WebcapConfig } from '../config/types.js';
import type { CallContext, CallResult } from '../policies/types.js';
import { findSecret, missingSecret } from './vault.js';

type Terminal = (call: CallContext) => Promise<CallResult>;

export function withSecrets(config: Pick<WebcapConfig, 'secrets'>, next: Terminal): Terminal {
  return async (call) => {
    for (const ref of refsOfCall(call.capability, call.params)) {
      if (!findSecret(config, ref.name)) throw missingSecret(config, ref.name);
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
