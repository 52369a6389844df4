// Secrets in no encoding: a known secret, a credential-named
// parameter's value and URL userinfo are gone from text whether they appear
// raw, JSON-escaped, percent-encoded (upper/lower hex, %40), form-encoded
// (`+` for a space) or encoded twice. One table per way a secret is known.
import { describe, expect, it } from 'vitest';
import { isCredentialName } from '../../../host/redact/credential-names.js';
import { encodedForms } from '../../../host/redact/encodings.js';
import { Redactor } from '../../../host/redact/redactor.js';

const SECRET = 'hunter 2@x!';
/** Every spelling of `s` a reader could decode back to it. */
const spellings = (s: string) => [...encodedForms(s), encodeURIComponent(encodeURIComponent(s))];

// How a value reaches text: the encodings a URL, a form body, a JSON document or a log line gives it.
const ENCODINGS: Array<[string, (v: string) => string]> = [
  ['raw', (v) => v],
  ['JSON string', (v) => JSON.stringify(v).slice(1, -1)],
  ['percent (encodeURIComponent, %40 %20)', (v) => encodeURIComponent(v)],
  ['percent, lower-case hex', (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
  ['form (+ for space)', (v) => new URLSearchParams({ v }).toString().slice(2)],
  ['encodeURI', (v) => encodeURI(v)],
  ['percent twice', (v) => encodeURIComponent(encodeURIComponent(v))],
];

describe('a secret learnt at run time (addSecret), in every encoding', () => {
  const r = new Redactor();
  r.addSecret(SECRET);
  it.each(ENCODINGS)('%s, alone, in a GET result URL and in a form body', (_name, encode) => {
    for (const text of [encode(SECRET), `http://shop.test/login?user=bob&q=${encode(SECRET)}&go=1`, `user=bob&q=${encode(SECRET)}`, `typed "${encode(SECRET)}" then Enter`]) {
      const out = r.redactString(text);
      for (const s of spellings(SECRET)) expect(out, text).not.toContain(s);
      expect(out).toContain('[REDACTED]');
    }
  });

  it('survives a round trip through a JSON log line', () => {
    const out = JSON.stringify(r.redact(JSON.parse(JSON.stringify({ msg: `url http://a.test/?q=${encodeURIComponent(SECRET)}`, nested: [{ v: SECRET }] }))));
    for (const s of spellings(SECRET)) expect(out).not.toContain(s);
  });
});

const CREDENTIAL_NAMES = ['pass', 'passcode', 'pwd', 'auth', 'sid', 'session', 'credential', 'pin', 'secret', 'token', 'key',
  'password', 'passwd', 'api_key', 'apiKey', 'access_token', 'user[password]', 'PHPSESSID', 'j_password', 'otp', 'x-api-key', 'user%5Bpass%5D'];
const ORDINARY_NAMES = ['q', 'page', 'keyword', 'spin', 'shipping', 'sort', 'username', 'city', 'passenger', 'monkey'];
const VALUE = 'Zq9 vX@7!';

describe('query and form parameters named like credentials, whatever builtin says', () => {
  const r = new Redactor({ builtin: [], patterns: [] });
  it.each(CREDENTIAL_NAMES)('%s= is redacted in every encoding of its value', (name) => {
    expect(isCredentialName(name)).toBe(true);
    for (const [how, encode] of ENCODINGS) {
      if (how === 'raw' || how === 'JSON string') continue; // a raw space ends a query value; see the prose cases below
      for (const text of [`http://a.test/p?x=1&${name}=${encode(VALUE)}#top`, `${name}=${encode(VALUE)}&next=1`, `GET /login?${name}=${encode(VALUE)} failed`]) {
        const out = r.redactString(text);
        for (const s of spellings(VALUE)) expect(out, `${how}: ${text}`).not.toContain(s);
        expect(out, `${how}: ${text}`).toMatch(/zq9|%5BREDACTED%5D|\[REDACTED\]/i);
        expect(out.toLowerCase()).not.toContain('zq9');
      }
    }
  });

  it.each(ORDINARY_NAMES)('%s= is kept', (name) => {
    expect(isCredentialName(name)).toBe(false);
    expect(r.redactString(`http://a.test/?${name}=laptops&x=1`)).toBe(`http://a.test/?${name}=laptops&x=1`);
  });

  it('redacts "name": "value" pairs in JSON that became text', () => {
    expect(r.redactString('{"pin":"4321","passcode":"99x","city":"Oslo"}')).toBe('{"pin":"[REDACTED]","passcode":"[REDACTED]","city":"Oslo"}');
  });

  it('redacts a credential parameter inside a URL that is itself a parameter value (next=…)', () => {
    const inner = `http://a.test/cb?token=${VALUE}`;
    const out = r.redactString(`http://a.test/login?next=${encodeURIComponent(inner)}`);
    expect(out.toLowerCase()).not.toContain('zq9');
  });
});

describe('URL userinfo, on any host', () => {
  const r = new Redactor({ builtin: [], patterns: [] });
  const CASES: Array<[string, string]> = [
    ['http://admin:pw1@intranet/', 'http://admin:[REDACTED]@intranet/'],
    ['https://u:s3cret@10.0.0.1:8080/x', 'https://u:[REDACTED]@10.0.0.1:8080/x'],
    ['ftp://u:p%40ss@files/a', 'ftp://u:[REDACTED]@files/a'],
    ['http://u:p@ss@intranet/', 'http://u:[REDACTED]@intranet/'],
    ['see //svc:pw9@backend:81/health', 'see //svc:[REDACTED]@backend:81/health'],
    ['http://[::1]:80/ no userinfo', 'http://[::1]:80/ no userinfo'],
  ];
  it.each(CASES)('%s', (text, expected) => expect(r.redactString(text)).toBe(expected));

  it('is found percent-encoded inside another URL', () => {
    const out = r.redactString(`http://a.test/go?next=${encodeURIComponent('http://admin:pw1xyz@intranet/')}`);
    expect(out).not.toContain('pw1xyz');
  });
});
