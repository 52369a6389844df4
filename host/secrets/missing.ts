// A call names a secret the vault does not hold. Where a person can be
// reached without the value passing through the client or the model — an MCP
// client that supports URL-mode elicitation, while the console serves — the
// client is sent to the console's entry page; the person types the value
// there, it is sealed into the vault bound to the origins they confirm, and
// the call goes on. Anywhere else (or if the person declines, cancels or
// does not answer in [consent] timeout_s) the call fails saying which secret
// is missing and how to set it.
import { originOfUrl, refText, type SecretRef } from '../../manifests/secrets/refs.js';
import type { SecretDesk } from '../console/secret-desk.js';
import type { WebcapConfig } from '../config/types.js';
import type { CallContext } from '../policies/types.js';
import { setSecret } from './vault.js';

interface UrlElicitation {
  url: string;
  message: string;
  /** The session the call is on (finds the client that owns it). */
  session?: string;
  /** Aborted: the request is withdrawn (cancelled, timed out, the call ended). */
  withdraw: AbortSignal;
  /** Resolves when the person has done what the page asked (the client may close it). */
  completed: Promise<unknown>;
}

/** Sends the person behind the calling client to a URL: 'opened' (they agreed), 'declined', or 'unsupported' (no such client). */
export type UrlElicitor = (req: UrlElicitation) => Promise<'opened' | 'declined' | 'unsupported'>;

interface MissingDeps {
  config: Pick<WebcapConfig, 'secrets' | 'consent'>;
  desk: SecretDesk;
  /** The link to one entry page (its own key, never the console's token); undefined while no console serves. */
  entryUrl(id: string): string | undefined;
  serving(): boolean;
  elicitUrl?: UrlElicitor;
  /** The URL the session's page is on, if known (its origin is proposed). */
  pageUrl(session: string | undefined): string | undefined;
  learn(value: string): void;
  record(event: string, session: string | null, detail: Record<string, unknown>): Promise<void>;
}

/** What the host can say about the page a missing secret is wanted for: its origin, if a web one. */
export function proposedOrigin(url: string | undefined): string | undefined {
  const origin = url ? originOfUrl(url) : 'null';
  return /^https?:/.test(origin) ? origin : undefined;
}

/** Asks a person for the missing secret; true once it is in the vault, false if nobody could be asked or they did not enter it. */
export function askForMissingSecret(deps: MissingDeps) {
  return async (ref: SecretRef, call: CallContext): Promise<boolean> => {
    if (!deps.serving() || !deps.elicitUrl) return false;
    const origin = proposedOrigin(deps.pageUrl(call.session));
    const request = deps.desk.open(
      { name: ref.name, kind: ref.kind, origins: origin ? [origin] : [], asked_by: `${call.capability}${call.caller ? ` by ${call.caller}` : ''}` },
      (value, origins) => {
        const stored = setSecret(deps.config, { name: ref.name, kind: ref.kind, origins, value });
        if (ref.kind === 'secret') deps.learn(value);
        void deps.record('secret_entered', call.session ?? null, { secret: refText(ref), origins: stored.origins, channel: 'console' }).catch(() => undefined);
      },
    );
    const url = new URL(deps.entryUrl(request.id)!);
    const withdraw = new AbortController();
    const timer = setTimeout(() => request.cancel(), deps.config.consent.timeout_s * 1000);
    timer.unref?.();
    const onAbort = () => request.cancel();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const message = `webcap needs the ${ref.kind === 'totp' ? 'TOTP seed' : 'secret'} "${ref.name}"${origin ? ` for ${origin}` : ''}, which is not in its vault. `
      + 'Enter it on the webcap console page (not here: the value never passes through this client).';
    void deps.elicitUrl({ url: url.href, message, ...(call.session ? { session: call.session } : {}), withdraw: withdraw.signal, completed: request.outcome })
      .then((r) => { if (r !== 'opened') request.cancel(); }, () => request.cancel());
    const stored = (await request.outcome) === 'stored';
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', onAbort);
    // Entered: the client is told the page is done (completed) and answers in its own time. Otherwise the request is withdrawn.
    if (!stored) withdraw.abort();
    return stored;
  };
}
