import { describe, expect, it } from 'vitest';
import { Redactor, REDACTED } from '../../../host/redact/redactor.js';

const R = REDACTED;
const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('Redactor.redact: strings, by shape', () => {
  const r = new Redactor({ builtin: ['email', 'card', 'token'], patterns: ['ORDER-\\d{6}'] });
  const cases: Array<[string, string, string]> = [
    ['email', 'write to alice.smith+shop@example.org today', `write to ${R} today`],
    ['card with spaces (Luhn ok)', 'paid with 4111 1111 1111 1111.', `paid with ${R}.`],
    ['card with dashes (Luhn ok)', 'card 5555-5555-5555-4444', `card ${R}`],
    ['amex 15 digits (Luhn ok)', 'amex 378282246310005', `amex ${R}`],
    ['16 digits failing Luhn stay', 'ref 4111 1111 1111 1112', 'ref 4111 1111 1111 1112'],
    ['plain 16-digit id failing Luhn stays', 'order 1234567890123456', 'order 1234567890123456'],
    ['Authorization header in text', 'sent Authorization: Bearer abc.def-123', `sent Authorization: ${R}`],
    ['Bearer token', 'token is Bearer abcdef123456', `token is Bearer ${R}`],
    ['Basic credentials', 'Basic dXNlcjpwYXNzd29yZA==', `Basic ${R}`],
    ['"Basic" as a word stays', 'Basic information about shipping', 'Basic information about shipping'],
    ['OpenAI-style key', 'key sk-proj-AbCdEf0123456789xyzXYZ', `key ${R}`],
    ['GitHub token', 'ghp_0123456789abcdefABCDEF0123456789abcd used', `${R} used`],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE', R],
    ['JWT', `jwt=${jwt}`, `jwt=${R}`],
    ['token in a query string', 'https://shop.test/cb?code=xyz&access_token=abc123&page=2', `https://shop.test/cb?code=${R}&access_token=${R}&page=2`],
    ['long hex secret', 'sig 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', `sig ${R}`],
    // A digest labelled as one (attestation, chain hashes) is not a secret; unlabelled or otherwise labelled hex still is.
    ['labelled sha256 digest', 'attestation sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'attestation sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    ['hex after another label', 'key:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', `key:${R}`],
    ['random base64 secret', 'secret: q8Vn3+Lk2Pz9Tx/Rw5Ym0Hc7Jd4Fb6Ga1Es8Ku2Wo=', `secret: ${R}`],
    ['URL path stays', 'https://shop.test/articles/2024/my-very-long-article-slug-here', 'https://shop.test/articles/2024/my-very-long-article-slug-here'],
    ['camelCase name stays', 'MyVeryLongCamelCaseIdentifierNameForTesting123', 'MyVeryLongCamelCaseIdentifierNameForTesting123'],
    ['dates and prices stay', '2024-05-01 costs 19.99 EUR, call +33 1 23 45 67 89', '2024-05-01 costs 19.99 EUR, call +33 1 23 45 67 89'],
    ['config pattern', 'your ORDER-123456 shipped', `your ${R} shipped`],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(r.redact(input)).toBe(expected);
  });

  it('honours builtin: [] (nothing by shape)', () => {
    expect(new Redactor({ builtin: [], patterns: [] }).redact('bob@example.org 4111111111111111')).toBe('bob@example.org 4111111111111111');
  });

  it('names a bad config pattern', () => {
    expect(() => new Redactor({ builtin: [], patterns: ['(unclosed'] })).toThrow(/redaction\.patterns.*\(unclosed/);
  });
});

describe('Redactor.redact: objects, by key and by learnt secret', () => {
  it('hides a password added with addSecret everywhere, including URL-encoded', () => {
    const r = new Redactor();
    r.addSecret('hunter2 & co');
    expect(r.redact({ text: 'typed hunter2 & co', url: 'https://x.test/?q=hunter2%20%26%20co', n: 3 }))
      .toEqual({ text: `typed ${R}`, url: `https://x.test/?q=${R}`, n: 3 });
  });

  it('ignores secrets too short to tell from text', () => {
    const r = new Redactor();
    r.addSecret('ab');
    expect(r.redact('table')).toBe('table');
  });

  it('redacts cookie values but keeps names and domains', () => {
    const r = new Redactor();
    const input = { cookies: [{ name: 'sid', value: 'abc123', domain: 'shop.test', httpOnly: true }] };
    expect(r.redact(input)).toEqual({ cookies: [{ name: 'sid', value: R, domain: 'shop.test', httpOnly: true }] });
    expect(input.cookies[0].value).toBe('abc123'); // never mutates
    expect(r.redact({ items: [{ name: 'theme', value: 'dark', path: '/' }] })).toEqual({ items: [{ name: 'theme', value: R, path: '/' }] });
    expect(r.redact({ cookie: { sid: 'abc', lang: 'fr' } })).toEqual({ cookie: { sid: R, lang: R } });
  });

  it('redacts secret-named keys whatever their value', () => {
    const r = new Redactor();
    expect(r.redact({
      headers: { Authorization: 'Basic Zm9v', 'X-Api-Key': 'k1', Cookie: 'sid=1' },
      password: 'pw', new_password: 'pw2', apiKey: 'k', client_secret: 's', passwd: 'x', remember_password: true, note: 'hello',
    })).toEqual({
      headers: { Authorization: R, 'X-Api-Key': R, Cookie: R },
      password: R, new_password: R, apiKey: R, client_secret: R, passwd: R, remember_password: true, note: 'hello',
    });
  });

  it('turns errors into plain redacted fields and survives cycles', () => {
    const r = new Redactor();
    const cyclic: Record<string, unknown> = { email: 'a@b.example' };
    cyclic.self = cyclic;
    expect(r.redact(cyclic)).toEqual({ email: R, self: '[…]' });
    expect(r.redact(new Error('login failed for a@b.example'))).toMatchObject({ name: 'Error', message: `login failed for ${R}` });
  });
});

describe('Redactor.redactParams', () => {
  it('hides sensitive_params whole (at any depth) and redacts the rest', () => {
    const r = new Redactor();
    const manifest = { sensitive_params: ['cookies'] };
    expect(r.redactParams(manifest, { cookies: [{ name: 'sid', value: 'v' }], session: 's1', note: 'to bob@example.org' }))
      .toEqual({ cookies: R, session: 's1', note: `to ${R}` });
    expect(r.redactParams(manifest, { batch: [{ cookies: 'x' }] })).toEqual({ batch: [{ cookies: R }] });
    expect(r.redactParams({}, { selector: '#q', text: 'shoes' })).toEqual({ selector: '#q', text: 'shoes' });
  });
});

describe('Redactor.summarise', () => {
  const r = new Redactor();

  it('keeps the first 20 items of a long array and counts the rest', () => {
    const out = r.summarise({ items: Array.from({ length: 50 }, (_, i) => i) }) as { items: unknown[] };
    expect(out.items).toHaveLength(21);
    expect(out.items.at(-1)).toEqual({ truncated: 30 });
  });

  it('cuts long strings with … and stays under maxChars', () => {
    const big = { text: 'x'.repeat(10_000), rows: Array.from({ length: 200 }, (_, i) => ({ i, s: 'y'.repeat(300) })) };
    const out = r.summarise(big, 2000) as { text: string };
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(2000);
    expect(out.text.endsWith('…')).toBe(true);
  });

  it('redacts before summarising', () => {
    expect(r.summarise({ title: 'Hi bob@example.org' })).toEqual({ title: `Hi ${R}` });
  });

  it('gives up gracefully on a huge flat object', () => {
    const wide = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));
    const out = r.summarise(wide, 500) as { truncated_json: string };
    expect(out.truncated_json.length).toBeLessThanOrEqual(500);
  });
});
