// Redaction: nothing secret reaches the causal chain, the log file or the
// console. Three layers, because each catches what the others cannot:
//  1. by name — manifest.sensitive_params and keys like password/token/cookie;
//  2. by value — secrets learnt at run time (addSecret: a typed password);
//  3. by shape — builtin patterns (emails, Luhn-valid cards, API tokens) and
//     config `redaction.patterns`.
// Names inside text (credential-named query/form parameters, URL userinfo)
// always apply. Every layer also sees percent- and form-encoded text decoded
// (a GET form's result URL, a `next=` parameter holding a URL), and a known
// secret is looked for in each of its encodings (encodings.ts).
import type { Manifest } from '../../manifests/load.js';
import type { WebcapConfig } from '../config/types.js';
import { redactByName } from './credential-names.js';
import { ENCODED_TOKEN, encodedForms, mayBeEncoded, percentDecode } from './encodings.js';
import { BUILTIN_RULES, customRules, REDACTED, type Rule } from './patterns.js';
import { summariseValue } from './summarise.js';
import { hideTypedText, typedStrings, type CallOutcome } from './typed-text.js';

export { REDACTED } from './patterns.js';
type RedactionConfig = WebcapConfig['redaction'];

const DEFAULT_CONFIG: RedactionConfig = { builtin: ['email', 'card', 'token'], patterns: [] };
/** Shorter values would redact ordinary text (every "a" in a log); they are not tracked. */
const MIN_SECRET_LENGTH = 4;
const MAX_DEPTH = 64;

// Normalised (lower case, no - _ or spaces) key names whose values are secret.
const SECRET_KEY = /password|passwd|passphrase|secret|token|apikey|authorization|credential|privatekey/;
// Not `session` or `code`: webcap's own results use those names for session names and error codes.
const SECRET_KEYS = new Set(['pwd', 'pass', 'passcode', 'pin', 'sid', 'cookie', 'cookies', 'setcookie', 'auth', 'sessionid', 'otp', 'cvv', 'cvc']);
const COOKIE_KEYS = new Set(['cookie', 'cookies', 'setcookie']);
const COOKIE_FIELDS = ['domain', 'path', 'expires', 'httpOnly', 'secure', 'sameSite', 'url'];

const norm = (key: string) => key.toLowerCase().replace(/[-_\s]/g, '');

export class Redactor {
  private readonly rules: Rule[];
  private secrets: string[] = []; // longest first, so a secret containing another goes whole

  constructor(config: RedactionConfig = DEFAULT_CONFIG) {
    this.rules = [...config.builtin.flatMap((name) => BUILTIN_RULES[name] ?? []), ...customRules(config.patterns)];
  }

  /** Remembers a run-time secret: from now on every string containing it is redacted. */
  addSecret(value: string): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    for (const form of encodedForms(value)) if (!this.secrets.includes(form)) this.secrets.push(form);
    this.secrets.sort((a, b) => b.length - a.length);
  }

  /** `value` with every secret learnt so far replaced in its strings (nothing else changed): a provider's answer. */
  hideSecrets<T>(value: T, depth = 0): T {
    if (typeof value === 'string') {
      let out: string = value;
      for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      return out as T;
    }
    if (!value || typeof value !== 'object' || depth > MAX_DEPTH || this.secrets.length === 0) return value;
    if (Array.isArray(value)) return value.map((v) => this.hideSecrets(v, depth + 1)) as T;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.hideSecrets(v, depth + 1)])) as T;
  }

  redactString(text: string): string {
    const out = this.redactPlain(text);
    return mayBeEncoded(out) ? out.replace(ENCODED_TOKEN, (token) => this.redactEncoded(token)) : out;
  }

  private redactPlain(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    out = redactByName(out);
    for (const rule of this.rules) out = out.replace(rule.re, rule.replace as (m: string, ...a: unknown[]) => string);
    return out;
  }

  /**
   * An encoded token is decoded (nested encodings too: a URL inside a `next=`
   * parameter, a double-encoded value) and redacted again, read as a URL (`+`
   * kept) and as a form value (`+` is a space). If either reading finds
   * something, the decoded, redacted reading replaces the token.
   */
  private redactEncoded(token: string): string {
    let plain = token;
    for (let i = 0; i < 3; i++) {
      const next = percentDecode(plain);
      if (next === plain) break;
      plain = next;
    }
    let out = this.redactPlain(plain);
    let found = out !== plain;
    if (out.includes('+')) {
      const asForm = out.replace(/\+/g, ' ');
      const redacted = this.redactPlain(asForm);
      if (redacted !== asForm) { out = redacted; found = true; }
    }
    return found ? out : token;
  }

  /** Deep copy of any JSON-like value with every secret replaced. Never mutates the input. */
  redact<T>(value: T): T {
    return this.walk(value, false, 0, new WeakSet()) as T;
  }

  /** Params as the chain records them: sensitive params (at any depth) hidden whole, the rest redacted. */
  redactParams(manifest: Pick<Manifest, 'sensitive_params'>, params: Record<string, unknown>): Record<string, unknown> {
    const names = new Set(manifest.sensitive_params ?? []);
    const hide = (v: unknown, depth: number): unknown => {
      if (depth > MAX_DEPTH || v === null || typeof v !== 'object') return v;
      if (Array.isArray(v)) return v.map((x) => hide(x, depth + 1));
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, names.has(k) && x != null ? REDACTED : hide(x, depth + 1)]));
    };
    return this.redact(hide(params, 0) as Record<string, unknown>);
  }

  /**
   * Params as the chain records them for a call with this outcome: what the
   * call typed hidden unless it went into a plain field (typed-text.ts), then
   * as redactParams. Without an outcome (an entry written before the call
   * runs) typed text is always hidden.
   */
  redactCallParams(manifest: Pick<Manifest, 'id' | 'sensitive_params'>, params: Record<string, unknown>, outcome?: CallOutcome): Record<string, unknown> {
    return this.redactParams(manifest, hideTypedText(manifest.id, params, outcome));
  }

  /** A failed call's error message without the text it typed (Playwright quotes an unknown key whole), then redacted. */
  redactCallMessage(manifest: Pick<Manifest, 'id'>, params: Record<string, unknown>, message: string): string {
    let out = message;
    // Two characters at least: a single letter would garble the message and tells little.
    for (const typed of typedStrings(manifest.id, params).filter((t) => t.length >= 2).sort((a, b) => b.length - a.length)) {
      for (const form of [JSON.stringify(typed).slice(1, -1), typed]) out = out.split(form).join(REDACTED);
    }
    return this.redactString(out);
  }

  /** Redacted, then cut to about maxChars of JSON (long arrays and strings shortened). */
  summarise(result: unknown, maxChars = 2000): unknown {
    return summariseValue(this.redact(result), maxChars);
  }

  private walk(v: unknown, inCookie: boolean, depth: number, seen: WeakSet<object>): unknown {
    if (typeof v === 'string') return inCookie ? REDACTED : this.redactString(v);
    if (typeof v === 'bigint') return String(v);
    if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
    if (depth > MAX_DEPTH || seen.has(v)) return '[…]';
    seen.add(v);
    try {
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return this.walk((v as { toJSON(): unknown }).toJSON(), inCookie, depth + 1, seen);
      if (v instanceof Error) return this.walk(errorFields(v), inCookie, depth + 1, seen);
      if (Array.isArray(v)) return v.map((x) => this.walk(x, inCookie, depth + 1, seen));
      const obj = v as Record<string, unknown>;
      // A cookie object (Playwright's shape, or anything inside a cookies key): the value is the secret, not the name.
      const isCookie = 'value' in obj && (inCookie || ('name' in obj && COOKIE_FIELDS.some((f) => f in obj)));
      // Under a cookies key without name/value fields: a name → value map, every value secret.
      const isCookieMap = inCookie && !('value' in obj);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(obj)) {
        const n = norm(k);
        if ((isCookie && n === 'value') || isCookieMap) out[k] = x == null ? x : REDACTED;
        else if (COOKIE_KEYS.has(n) && x !== null && typeof x === 'object') out[k] = this.walk(x, true, depth + 1, seen);
        else if ((SECRET_KEY.test(n) || SECRET_KEYS.has(n)) && x != null && typeof x !== 'boolean') out[k] = REDACTED;
        else out[k] = this.walk(x, false, depth + 1, seen);
      }
      return out;
    } finally {
      seen.delete(v); // shared (non-cyclic) references are fine, only cycles are cut
    }
  }
}

function errorFields(e: Error): Record<string, unknown> {
  const extra = e as Error & { code?: unknown; details?: unknown };
  return { name: e.name, message: e.message, code: extra.code, details: extra.details, stack: e.stack };
}
