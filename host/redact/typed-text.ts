// Text a call types into a page, as the chain records the call's params. The
// host cannot tell a password box from a search box; the sidecar can, once
// the field is found. So typed text is secret until the field is known not
// to be: a call that failed (the field never appeared, consent was refused,
// the page threw) records it as [REDACTED], and so does one whose result says
// `secret_input: true` (the keys or text landed in a password or payment
// field, however the page dressed it up). Only a call that succeeded on a
// plain field keeps what it typed. Named keys (Enter, Tab, Control+A) are not
// text and stay readable.
import { hasRefs, keepOnlyRefs } from '../../manifests/secrets/refs.js';
import { REDACTED } from './patterns.js';

/** Hidden typed text; a vault reference in it ({{secret:NAME}}) stays, it is no secret and says what was typed. */
const hidden = (text: string) => (hasRefs(text) ? keepOnlyRefs(text, REDACTED).replace(/(\[REDACTED\])+/g, REDACTED) : REDACTED);

/** What became of the call: undefined while it has not run yet (a write-ahead intent entry). */
export interface CallOutcome { failed: boolean; result?: unknown }

type Params = Record<string, unknown>;

// Playwright's key names (keyboardLayout.ts) a user presses rather than types with.
const KEY_NAME = /^(?:Backquote|Minus|Equal|Backslash|Backspace|Tab|Delete|Escape|Esc|Arrow(?:Down|Up|Left|Right)|End|Enter|Home|Insert|Page(?:Down|Up)|F(?:[1-9]|1\d|2[0-4])|Digit\d|Key[A-Z]|Numpad\w+|(?:Shift|Control|Alt|Meta)(?:Left|Right)?|ControlOrMeta|AltGraph|CapsLock|NumLock|ScrollLock|ContextMenu|Bracket(?:Left|Right)|Semicolon|Quote|Comma|Period|Slash|IntlBackslash|Space|Pause|PrintScreen|Clear|Help|Cancel|Power|Audio\w+|Media\w+|Browser\w+|Launch\w+|Select|Undo|Again|Copy|Cut|Paste|Find|Open|Props|Sleep|WakeUp|Eject)$/;
const MODIFIER = /^(?:Shift|Control|Alt|Meta|ControlOrMeta|AltGraph)$/;

/**
 * A key that types text: a single character, Shift + a character, or any
 * string that is not a key name ("hunter2" pressed as one key is text too).
 * Enter, Tab, F5 and shortcuts such as Control+A are not.
 */
export function typesText(key: string): boolean {
  if (KEY_NAME.test(key)) return false;
  const parts = key.length > 1 && key.endsWith('+') ? [...key.slice(0, -2).split('+'), '+'] : key.split('+');
  const last = parts.pop()!;
  if (parts.length === 0 || !parts.every((p) => MODIFIER.test(p))) return true;
  if (KEY_NAME.test(last)) return false;
  // Modifier + one character: a shortcut (Control+A), unless Shift alone makes it a capital letter.
  return [...last].length !== 1 || parts.every((p) => p === 'Shift');
}

/** The strings a call typed that an error message might quote (a fill's text, a key Playwright did not know). */
export function typedStrings(capability: string, params: Params): string[] {
  if (capability === 'web.fill' || capability === 'web.type') return typeof params.text === 'string' ? [params.text] : [];
  if (capability === 'web.keypress' && Array.isArray(params.keys)) return params.keys.filter((k): k is string => typeof k === 'string' && typesText(k));
  if (capability === 'web.fill_form' && params.fields && typeof params.fields === 'object') return Object.values(params.fields).filter((v): v is string => typeof v === 'string');
  return [];
}

/** Each run of character keys becomes one [REDACTED] (its length is not told either). */
export function hideKeys(keys: unknown): unknown {
  if (!Array.isArray(keys)) return keys;
  const out: unknown[] = [];
  for (const key of keys) {
    if (hasRefs(key)) out.push(hidden(key));
    else if (typeof key === 'string' && !typesText(key)) out.push(key);
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
    return [k, plain || typeof v === 'boolean' ? v : typeof v === 'string' ? hidden(v) : REDACTED];
  }));
}

/** `params` with what the call typed hidden, unless the outcome shows it went into a plain field. */
export function hideTypedText(capability: string, params: Params, outcome?: CallOutcome): Params {
  switch (capability) {
    case 'web.fill':
    case 'web.type':
      return landedInSecret(outcome) && typeof params.text === 'string' ? { ...params, text: hidden(params.text) } : params;
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
