// Text a call types into a page, as the chain records the call's params. The
// host cannot tell a password box from a search box; the sidecar can, once
// the field is found. So typed text is secret until the field is known not
// to be: a call that failed (the field never appeared, consent was refused,
// the page threw) records it as [REDACTED], and so does one whose result says
// `secret_input: true` (the keys or text landed in a password or payment
// field, however the page dressed it up). Only a call that succeeded on a
// plain field keeps what it typed. Named keys (Enter, Tab, Control+A) are not
// text and stay readable.
import { REDACTED } from './patterns.js';

/** What became of the call: undefined while it has not run yet (a write-ahead intent entry). */
export interface CallOutcome { failed: boolean; result?: unknown }

type Params = Record<string, unknown>;

/** A key that types a character: "a", "7", " ", "Shift+A" (not Enter, Tab, Control+A, F5). */
export function typesText(key: string): boolean {
  if ([...key].length === 1) return true;
  const m = /^Shift\+(.+)$/.exec(key);
  return !!m && [...m[1]].length === 1;
}

/** Each run of character keys becomes one [REDACTED] (its length is not told either). */
export function hideKeys(keys: unknown): unknown {
  if (!Array.isArray(keys)) return keys;
  const out: unknown[] = [];
  for (const key of keys) {
    const hidden = typeof key !== 'string' || typesText(key);
    if (!hidden) out.push(key);
    else if (out.at(-1) !== REDACTED) out.push(REDACTED);
  }
  return out;
}

function landedInSecret(outcome: CallOutcome | undefined): boolean {
  if (!outcome || outcome.failed) return true;
  const r = outcome.result as Record<string, unknown> | null | undefined;
  return !r || typeof r !== 'object' || r.secret_input === true || r.field === 'password';
}

/** fill_form: a value is kept only when its field was filled and its value reported (a secret one comes back [REDACTED]). */
function hideFormValues(fields: unknown, outcome: CallOutcome | undefined): unknown {
  if (!fields || typeof fields !== 'object') return fields;
  const reported = (outcome && !outcome.failed ? (outcome.result as { values?: Record<string, { value?: unknown }> } | undefined)?.values : undefined) ?? {};
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => {
    const shown = reported[k]?.value;
    const plain = shown !== undefined && shown !== REDACTED && typeof v !== 'boolean';
    return [k, plain || typeof v === 'boolean' ? v : REDACTED];
  }));
}

/** `params` with what the call typed hidden, unless the outcome shows it went into a plain field. */
export function hideTypedText(capability: string, params: Params, outcome?: CallOutcome): Params {
  switch (capability) {
    case 'web.fill':
    case 'web.type':
      return landedInSecret(outcome) && typeof params.text === 'string' ? { ...params, text: REDACTED } : params;
    case 'web.keypress':
      return landedInSecret(outcome) ? { ...params, keys: hideKeys(params.keys) } : params;
    case 'web.fill_form':
      return { ...params, fields: hideFormValues(params.fields, outcome) };
    default:
      return params;
  }
}

/**
 * The sidecar reports what a secret field holds after keys landed in it
 * (`secret_value`): learnt as a secret (so a GET form's result URL, a later
 * message or a snapshot hides it in any encoding) and removed from the result.
 */
export function learnTypedSecret(result: unknown, learn: (secret: string) => void): void {
  if (!result || typeof result !== 'object') return;
  const r = result as Record<string, unknown>;
  if (typeof r.secret_value === 'string') learn(r.secret_value);
  delete r.secret_value;
}
