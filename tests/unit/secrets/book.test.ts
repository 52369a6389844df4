// The sidecar's book of typed secrets: what a request to another origin may
// not carry, and how answers show a value.
import { describe, expect, it } from 'vitest';
import { SecretBook } from '../../../sidecar/secrets/book.js';

const value = 'Tr0ub4dor &3 x';
const home = 'https://bank.example';

function book(): SecretBook {
  const b = new SecretBook();
  b.remember({ kind: 'secret', name: 'pw' }, value, [home]);
  return b;
}

describe('SecretBook.leakIn', () => {
  const carriers: Record<string, string | Buffer> = {
    raw: `x=${value}`,
    percent: `?v=${encodeURIComponent(value)}`,
    plus: `v=${new URLSearchParams({ v: value }).toString().slice(2)}`,
    json: JSON.stringify({ v: value }),
    base64: `authorization: Basic ${Buffer.from(`me:${value}`).toString('base64')}`,
    bytes: Buffer.from(`{"v":"${value}"}`),
  };
  for (const [kind, part] of Object.entries(carriers)) {
    it(`finds it ${kind} on its way elsewhere, lets it go home`, () => {
      expect(book().leakIn('https://evil.example', [part])).toEqual({ kind: 'secret', name: 'pw' });
      expect(book().leakIn(home, [part])).toBeUndefined();
    });
  }

  it('ignores requests that do not carry it, and knows nothing before anything is typed', () => {
    expect(book().leakIn('https://evil.example', ['Tr0ub4dor', Buffer.from('nothing')])).toBeUndefined();
    expect(new SecretBook().leakIn('https://evil.example', [value])).toBeUndefined();
  });
});

describe('SecretBook.scrub', () => {
  it('shows every form of the value as its reference, deep, without changing the input', () => {
    const input = { a: [`you typed ${value}`], b: { url: `https://x/?q=${encodeURIComponent(value)}` }, n: 3 };
    const out = book().scrub(input);
    expect(out).toEqual({ a: ['you typed {{secret:pw}}'], b: { url: 'https://x/?q={{secret:pw}}' }, n: 3 });
    expect(input.a[0]).toContain(value);
  });
});
