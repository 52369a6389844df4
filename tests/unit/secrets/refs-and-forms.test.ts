// Reading references, binding origins (port included) and listing the forms a
// value travels in, base64 at every byte offset included.
import { describe, expect, it } from 'vitest';
import { base64Forms, leakForms } from '../../../manifests/secrets/forms.js';
import { keepOnlyRefs, refsOfCall, requestOrigin, secretOrigin, splitRefs } from '../../../manifests/secrets/refs.js';

describe('references', () => {
  it('splits text into literal runs and references', () => {
    expect(splitRefs('a{{secret:pw}}b{{totp:bank.otp}}')).toEqual(['a', { kind: 'secret', name: 'pw' }, 'b', { kind: 'totp', name: 'bank.otp' }]);
    expect(splitRefs('{{secret:}} {{other:x}}')).toEqual(['{{secret:}} {{other:x}}']);
  });

  it('finds them in what each typing capability types', () => {
    expect(refsOfCall('web.keypress', { keys: ['Tab', '{{secret:a}}'] })).toEqual([{ kind: 'secret', name: 'a' }]);
    expect(refsOfCall('web.fill_form', { fields: { u: 'bob', p: '{{secret:b}}', ok: true } })).toEqual([{ kind: 'secret', name: 'b' }]);
    expect(refsOfCall('web.navigate', { url: '{{secret:c}}' })).toEqual([]);
  });

  it('keeps only the references of hidden text, one mark per literal run', () => {
    expect(keepOnlyRefs('pre{{secret:pw}}post', '[REDACTED]')).toBe('[REDACTED]{{secret:pw}}[REDACTED]');
  });

  it('binds origins with their port; a path, a query or another scheme is refused', () => {
    expect(secretOrigin('https://bank.example:443')).toBe('https://bank.example');
    expect(secretOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(secretOrigin('http://127.0.0.1:8080')).not.toBe(secretOrigin('http://127.0.0.1:8081'));
    for (const bad of ['https://bank.example/login', 'https://bank.example/?a=1', 'ftp://bank.example', 'bank.example']) expect(() => secretOrigin(bad)).toThrow(/origin/);
    expect(requestOrigin('wss://bank.example/socket')).toBe('https://bank.example');
  });
});

describe('forms a value travels in', () => {
  const value = 'c0rrect horse@Batt3ry';
  it('base64 inside a larger blob is found at each of the three byte offsets', () => {
    const forms = base64Forms(value);
    for (const prefix of ['', 'u:', 'us:', 'user:']) {
      const blob = Buffer.from(`${prefix}${value}!`).toString('base64');
      expect(forms.some((f) => blob.includes(f)), prefix).toBe(true);
    }
    expect(forms.some((f) => Buffer.from(value).toString('base64url').includes(f))).toBe(true);
  });

  it('raw, percent (both cases), +, form and JSON-escaped forms are listed', () => {
    const forms = leakForms(value);
    for (const f of [value, encodeURIComponent(value), encodeURIComponent(value).toLowerCase().replace('batt3ry', 'Batt3ry'), 'c0rrect+horse%40Batt3ry', JSON.stringify(value).slice(1, -1)]) {
      expect(forms, f).toContain(f);
    }
  });
});
