// What a call typed, as the chain and the step log show it: hidden unless the
// call succeeded on a plain field; unknown capability ids never carry a secret.
import { describe, expect, it } from 'vitest';
import { shownCapabilityId } from '../../../host/redact/capability-id.js';
import { Redactor } from '../../../host/redact/redactor.js';
import { stepTarget } from '../../../host/redact/step-target.js';
import { hideKeys, hideTypedText, typesText } from '../../../host/redact/typed-text.js';
import { loadManifests } from '../../../manifests/load.js';

const R = '[REDACTED]';
const manifest = (id: string) => loadManifests().find((m) => m.id === id)!;

describe('typed text in the chain (hideTypedText via redactCallParams)', () => {
  const r = new Redactor();
  const CASES: Array<[string, string, Record<string, unknown>, Parameters<typeof hideTypedText>[2], Record<string, unknown>]> = [
    ['fill that failed before its field appeared', 'web.fill', { selector: '#pw', text: 'abc' }, { failed: true }, { selector: '#pw', text: R }],
    ['fill before it ran (write-ahead intent)', 'web.fill', { selector: '#q', text: 'laptops' }, undefined, { selector: '#q', text: R }],
    ['fill into a password field', 'web.fill', { selector: '#pw', text: 'abc' }, { failed: false, result: { ok: true, field: 'password', value: R } }, { selector: '#pw', text: R }],
    ['fill into a payment field', 'web.fill', { selector: '#cc', text: '12' }, { failed: false, result: { ok: true, field: 'text', secret_input: true } }, { selector: '#cc', text: R }],
    ['fill into a plain field keeps the text', 'web.fill', { selector: '#q', text: 'laptops' }, { failed: false, result: { ok: true, field: 'text', value: 'laptops' } }, { selector: '#q', text: 'laptops' }],
    ['keys into a password field, one at a time', 'web.keypress', { keys: ['h'] }, { failed: false, result: { ok: true, secret_input: true } }, { keys: [R] }],
    ['keys into a password field, then Enter', 'web.keypress', { keys: ['p', 'w', '1', 'Enter'] }, { failed: false, result: { ok: true, secret_input: true } }, { keys: [R, 'Enter'] }],
    ['keys of a refused call', 'web.keypress', { keys: ['x', 'y', 'Tab', 'z'] }, { failed: true }, { keys: [R, 'Tab', R] }],
    ['a password pressed as one key', 'web.keypress', { keys: ['hunter2', 'Enter'] }, { failed: false, result: { ok: true } }, { keys: ['hunter2', 'Enter'] }],
    ['…and hidden once the call failed', 'web.keypress', { keys: ['hunter2', 'Enter'] }, { failed: true }, { keys: [R, 'Enter'] }],
    ['keys into a plain field are kept', 'web.keypress', { keys: ['h', 'i', 'Enter'] }, { failed: false, result: { ok: true } }, { keys: ['h', 'i', 'Enter'] }],
    ['fill_form that failed', 'web.fill_form', { fields: { user: 'bob', pass: 'x1', remember: true } }, { failed: true }, { fields: { user: R, pass: R, remember: true } }],
    ['fill_form keeps values it reported', 'web.fill_form', { fields: { user: 'bob', secret_q: 'x1' } }, { failed: false, result: { values: { user: { value: 'bob' }, secret_q: { value: R } } } }, { fields: { user: 'bob', secret_q: R } }],
  ];
  it.each(CASES)('%s', (_name, id, params, outcome, expected) => {
    expect(r.redactCallParams(manifest(id), params, outcome)).toEqual(expected);
  });

  it('knows character keys from named ones', () => {
    for (const k of ['a', '7', ' ', '+', 'Shift+A', 'é', '😀', 'hunter2', 'Hunter2', 'Control+hunter2']) expect(typesText(k), k).toBe(true);
    for (const k of ['Enter', 'Tab', 'Control+A', 'F5', 'ArrowLeft', 'Shift+Tab', 'Control++', 'Meta+Shift+KeyZ', 'NumpadEnter']) expect(typesText(k), k).toBe(false);
    expect(hideKeys(['a', 'b', 'Enter', 'c'])).toEqual([R, 'Enter', R]);
  });
});

describe('a failed call\'s error message', () => {
  const r = new Redactor();
  it('loses the text the call typed, as Playwright quotes it', () => {
    const msg = r.redactCallMessage(manifest('web.keypress'), { keys: ['hunter2'] }, 'keyboard.press: Unknown key: "hunter2"');
    expect(msg).toBe('keyboard.press: Unknown key: "[REDACTED]"');
    expect(r.redactCallMessage(manifest('web.fill'), { selector: '#a', text: 'pa"ss 1' }, 'fill("pa\\"ss 1") failed')).toBe('fill("[REDACTED]") failed');
    expect(r.redactCallMessage(manifest('web.open'), { url: 'http://a.test/' }, 'no route to http://a.test/')).toBe('no route to http://a.test/');
  });
});

describe('the step log never echoes typed text', () => {
  it.each([
    [{ selector: '#pw', text: 'hunter2' }, '#pw'],
    [{ keys: ['h', 'u', 'n', 'Enter'] }, '• • • Enter'],
    [{ ref: 'e5', text: 'hunter2' }, 'e5'],
    [{ text: 'hunter2' }, undefined],
  ])('%j → %s', (params, shown) => expect(stepTarget(params)).toBe(shown));
});

describe('unknown capability ids', () => {
  it.each([
    ['web.teleport', 'web.teleport'],
    ['web.open?token=abc123', '(malformed capability id, 21 characters)'],
    ['http://admin:pw@intranet/', '(malformed capability id, 25 characters)'],
    ['web.open token=abc', '(malformed capability id, 18 characters)'],
    ['\u0000garbage%40x', '(malformed capability id, 12 characters)'],
  ])('%j is shown as %s', (id, shown) => expect(shownCapabilityId(id)).toBe(shown));
});
