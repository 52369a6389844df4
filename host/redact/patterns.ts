// What a secret looks like inside free text (page text, error messages, URLs,
// log lines). Each builtin group is one name in config `redaction.builtin`.
export const REDACTED = '[REDACTED]';

export interface Rule {
  re: RegExp; // always global
  replace: (match: string, ...groups: string[]) => string;
}

const all = (): string => REDACTED;

/** Luhn checksum: tells a card number from any other long number. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

const charClass = (c: string) => (c >= 'a' && c <= 'z' ? 0 : c >= 'A' && c <= 'Z' ? 1 : c >= '0' && c <= '9' ? 2 : 3);

/**
 * A long base64 run is a secret only if it looks random: all three character
 * classes, few separators, and the class changes often (≈0.65 of neighbours in
 * random base64; camelCase names and URL paths stay well below 0.45).
 */
function looksRandom(candidate: string): boolean {
  const s = candidate.replace(/=+$/, '');
  if (!/[a-z]/.test(s) || !/[A-Z]/.test(s) || !/[0-9]/.test(s)) return false;
  if ((s.match(/[^A-Za-z0-9]/g) ?? []).length / s.length > 0.1) return false;
  let changes = 0;
  for (let i = 1; i < s.length; i++) if (charClass(s[i]) !== charClass(s[i - 1])) changes++;
  return changes / (s.length - 1) >= 0.45;
}

const SECRET_KEY = '(?:access_|refresh_|id_|auth_|client_|session_)?(?:token|secret|password|passwd|pwd|api_?key|key|sig|signature|code)';

const TOKEN_RULES: Rule[] = [
  { re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, replace: all },
  // Header lines quoted in text: keep the header name so the line still reads.
  { re: /\b((?:proxy-)?authorization|cookie|set-cookie|x-api-key|x-auth-token)(\s*:\s*)[^\r\n]+/gi, replace: (_m, h, sep) => `${h}${sep}${REDACTED}` },
  { re: /\bBearer\s+[A-Za-z0-9._~+/-]{4,}=*/g, replace: () => `Bearer ${REDACTED}` },
  // "Basic" is an English word too: only redact when it decodes to user:pass.
  {
    re: /\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/])/g,
    replace: (m, v) => (Buffer.from(v, 'base64').toString('utf8').includes(':') ? `Basic ${REDACTED}` : m),
  },
  // ?token=…, &api_key=…, password=… in URLs and form bodies.
  { re: new RegExp(`(^|[^A-Za-z0-9_])(${SECRET_KEY})=([^&\\s#"';,()<>[\\]{}]+)`, 'gi'), replace: (_m, pre, k) => `${pre}${k}=${REDACTED}` },
  // "password": "…" inside JSON that ended up as text (error bodies).
  { re: new RegExp(`("${SECRET_KEY}"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)"`, 'gi'), replace: (_m, pre) => `${pre}${REDACTED}"` },
  { re: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, replace: all }, // JWT
  { re: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: all }, // OpenAI / Anthropic style
  { re: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}/g, replace: all }, // Stripe
  { re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, replace: all },
  { re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: all }, // AWS access key id
  { re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: all }, // Slack
  { re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, replace: all }, // Google API key
  // Long hex is a token, unless labelled as a digest ("sha256:…": attestation, checkpoint hashes are not secrets).
  { re: /(?<![A-Za-z0-9])(?<!sha(?:1|256|384|512):)(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{32,}(?![A-Za-z0-9])/g, replace: all },
  { re: /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])/g, replace: (m) => (looksRandom(m) ? REDACTED : m) },
];

const EMAIL_RULES: Rule[] = [
  { re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, replace: all },
];

const CARD_RULES: Rule[] = [
  {
    re: /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g,
    replace: (m) => {
      const digits = m.replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhn(digits) ? REDACTED : m;
    },
  },
];

export const BUILTIN_RULES: Record<'email' | 'card' | 'token', Rule[]> = {
  token: TOKEN_RULES,
  email: EMAIL_RULES,
  card: CARD_RULES,
};

/** config `redaction.patterns`: each match is replaced whole. A bad regex is a startup error. */
export function customRules(patterns: string[]): Rule[] {
  return patterns.map((p) => {
    try {
      return { re: new RegExp(p, 'g'), replace: all };
    } catch (err) {
      throw new Error(`redaction.patterns: invalid regular expression ${JSON.stringify(p)}: ${(err as Error).message}`);
    }
  });
}
