// The host's side of a secret reference. The sidecar asks when the keys are
// about to land, naming the frame's origin; the host answers with the value
// only if the secret is bound to that origin and the user approved its use
// there (asked once per origin, remembered like other approvals). The value
// goes back over the sidecar pipe and is learnt by the redactor; the chain
// gets `{{secret:NAME}}` and the origin, never the value or its length.
import { toWebcapError, WebcapError } from '../../manifests/errors.js';
import { refText } from '../../manifests/secrets/refs.js';
import type { SecretAnswer, SecretResolve } from '../../manifests/wire.js';
import type { WebcapConfig } from '../config/types.js';
import type { ConsentGate } from '../consent/gate.js';
import { findSecret, missingSecret, openSecret } from './vault.js';

type Record_ = (event: string, session: string, detail: { [k: string]: unknown }) => Promise<void>;

/** The consent scope: one approval per secret and origin, whichever action types it. */
const SECRET_USE = 'secret.use';

export function secretResolver(config: Pick<WebcapConfig, 'secrets'>, gate: ConsentGate, learn: (value: string) => void, record: Record_) {
  return async (q: SecretResolve): Promise<SecretAnswer> => {
    try {
      const ref = refText({ kind: q.kind, name: q.name });
      const summary = findSecret(config, q.name);
      if (!summary) throw missingSecret(config, q.name, { kind: q.kind, ...(/^https?:/.test(q.origin) ? { origin: q.origin } : {}) });
      if (summary.kind !== q.kind) {
        throw new WebcapError('invalid_params', `secret "${q.name}" is ${summary.kind === 'totp' ? 'a TOTP seed: type its code with {{totp:' : 'a plain secret: type it with {{secret:'}${q.name}}}`, { field: 'secret', vault_name: q.name });
      }
      if (!summary.origins.includes(q.origin)) {
        await record('secret_refused', q.session, { secret: ref, origin: q.origin, capability: q.capability, reason: 'secret_origin' });
        throw new WebcapError('consent_denied', `${ref} is not for this site: the field is on ${q.origin}, the secret is bound to ${summary.origins.join(', ')}; nothing was typed`, { reason: 'secret_origin', vault_name: q.name, origin: q.origin });
      }
      const answer = await gate.confirm({
        capability: SECRET_USE, origin: q.origin, selector: ref, reason: 'secret_use', session: q.session,
        question: `Allow ${q.capability} to type the ${q.kind === 'totp' ? 'TOTP code' : 'secret'} "${q.name}" from the vault into ${q.origin}?`,
      });
      if (!answer.approved) throw new WebcapError('consent_denied', `the user did not approve typing ${ref} into ${q.origin}; nothing was typed`, { reason: 'secret_use', vault_name: q.name, origin: q.origin });
      const { value } = openSecret(config, q.name);
      if (q.kind === 'secret') learn(value);
      await record('secret_used', q.session, { secret: ref, origin: q.origin, capability: q.capability });
      return { ok: true, kind: summary.kind, value, origins: summary.origins };
    } catch (err) {
      const e = toWebcapError(err);
      return { ok: false, error: { code: e.code, message: e.message, ...(e.details ? { details: e.details as Record<string, unknown> } : {}) } };
    }
  };
}
