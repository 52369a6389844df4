// Redaction by name inside text: query and form parameters named like
// credentials (`?pass=…`, `&session=…`, `user[password]=…`, `"apiKey": "…"`)
// and the userinfo of a URL (`http://admin:pw@intranet/`, dotted host or
// not). These are structural, not shapes of a secret, so they apply whatever
// `[redaction] builtin` says.
import { REDACTED, type Rule } from './patterns.js';

// Words that make a parameter a credential when they are the whole name or
// one of its words (api_key, userPin, j_password, auth-token).
const WORDS = new Set([
  'pass', 'passwd', 'password', 'passcode', 'passphrase', 'pwd', 'pw', 'pword', 'auth', 'authorization', 'authkey',
  'sid', 'sess', 'sessid', 'session', 'sessionid', 'credential', 'credentials', 'cred', 'creds', 'pin', 'secret',
  'token', 'key', 'apikey', 'otp', 'cvv', 'cvc', 'csc', 'sig', 'signature', 'code', 'jwt', 'bearer', 'ssn', 'cookie',
]);
// Runs that mark a credential anywhere in a name, even glued to other words (PHPSESSID, authtoken, x-api-key).
const INSIDE = /pass(?:wd|word|code|phrase)|secret|token|credential|api_?key|sess_?id|session_?id|private_?key|access_?key|auth_?key/;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Is this parameter or field name one a credential goes under? */
export function isCredentialName(raw: string): boolean {
  const name = decodeName(raw);
  // camelCase and digits split into words, then any separator ([ ] . - _ space).
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
  if (words.some((w) => WORDS.has(w))) return true;
  return INSIDE.test(name.toLowerCase());
}

// A parameter starts after ^ ? & ; whitespace or punctuation; its value runs to the next & # ; whitespace or quote.
const PARAM = /(?<=^|[?&;\s"'(,{<>[])([^\s=&?#;"'<>(){},/\\]{1,80})=/g;
const VALUE_END = /[&\s#;"'<>,()[\]{}]/; // as a query value in prose ends: (token=abc) keeps its parenthesis

/**
 * name=value pairs in a query string, a form body or prose. Scanned by hand
 * rather than with one replace: a value may itself hold `?` and `=` (a URL in
 * `next=`), and a credential named inside it must still be found.
 */
function redactParams(text: string): string {
  if (!text.includes('=')) return text;
  let out = '';
  let copied = 0;
  PARAM.lastIndex = 0;
  for (let m = PARAM.exec(text); m; m = PARAM.exec(text)) {
    if (!isCredentialName(m[1])) continue; // keep scanning from just after `=`
    const start = PARAM.lastIndex;
    const rest = text.slice(start);
    const stop = VALUE_END.exec(rest);
    const end = start + (stop ? stop.index : rest.length);
    if (end === start) continue;
    out += text.slice(copied, start) + REDACTED;
    copied = end;
    PARAM.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const RULES: Rule[] = [
  // "name": "value" in JSON that became text (an error body, a log line that was not JSON).
  {
    re: /("([^"\\]{1,80})"\s*:\s*")((?:[^"\\]|\\.)*)"/g,
    replace: (m, pre, name) => (isCredentialName(name) ? `${pre}${REDACTED}"` : m),
  },
  // scheme://user:password@host — any host, with or without a dot; `//user:pw@` without a scheme too.
  {
    re: /((?:[a-z][a-z0-9+.-]*:)?\/\/)([^\s/?#@:"'<>[\]]*):([^\s/?#"'<>]*)@/gi, // greedy: up to the last @ (a password may hold one)
    replace: (_m, scheme, user) => `${scheme}${user}:${REDACTED}@`,
  },
];

/** Credential-named parameters and fields, and URL userinfo, redacted in `text`. */
export function redactByName(text: string): string {
  let out = redactParams(text);
  for (const rule of RULES) out = out.replace(rule.re, rule.replace as (m: string, ...a: unknown[]) => string);
  return out;
}
