// Chain → plan, on hand-made chain entries: what is kept, what is
// left out and said so, refs turned into selectors, typed values into inputs,
// secrets never written, and entries of kinds export does not know skipped.
import { describe, expect, it } from 'vitest';
import { finishedCalls, selectRun, type RawEntry } from '../../../host/replay/chain-calls.js';
import { writeExportedPlan } from '../../../host/replay/plan-writer.js';
import { parsePlan } from '../../../host/rtfs/index.js';

const fp = (extra: Record<string, unknown>) => ({ role: 'textbox', name: 'City', tag: 'input', css: '#city', ...extra });
let seq = 0;
const call = (capability: string, params: Record<string, unknown>, result: unknown, more: Partial<RawEntry> = {}): RawEntry =>
  ({ seq: ++seq, kind: 'call', capability, session: 's1', plan_id: null, params, result, error: null, decision: { decision: 'allowed', policy: 'consent' }, ...more });

const recording: RawEntry[] = [
  call('ccos.user.ask', { question: 'Search hotels?' }, { approved: true }, { session: null }),
  call('web.open', { url: 'http://shop.test/' }, { session: 's1', url: 'http://shop.test/' }, { session: null }),
  { seq: ++seq, kind: 'intent', capability: 'web.snapshot', call_id: 'c9' },
  call('web.snapshot', {}, { snapshot: '- textbox "City" [ref=e3]' }, { call_id: 'c9' }),
  { seq: ++seq, kind: 'lock', holder: 'other process' },
  call('web.fill', { ref: 'e3', text: 'Lyon' }, { ok: true, value: 'Lyon', fingerprint: fp({ label: 'City' }) }),
  call('web.fill', { selector: '#pw', text: '[REDACTED]' }, { ok: true, value: '[REDACTED]', field: 'password', fingerprint: fp({ css: '#pw', label: 'Password', secret: true }) }),
  call('web.click', { selector: '#gone' }, null, { error: { code: 'selector_not_found', message: 'no element matching #gone' } }),
  call('web.navigate', { url: 'http://evil.test/' }, null, { error: { code: 'not_allowlisted', message: 'evil.test is not on the allowlist' }, decision: { decision: 'denied', policy: 'allowlist' } }),
  call('web.click', { selector: '#go' }, { ok: true, fingerprint: fp({ role: 'button', name: 'Go', tag: 'button', css: '#go' }) }),
  call('web.extract', { selector: 'li' }, { items: [{ text: 'a' }] }),
];

describe('chain export', () => {
  const { calls } = selectRun(recording, { session: 's1' });
  const out = writeExportedPlan(calls, 'session s1');

  it('keeps the successful calls in order, ccos.user.ask included, and parses as RTFS', () => {
    expect(() => parsePlan(out.plan)).not.toThrow();
    const order = [...out.plan.matchAll(/\(call :([\w.]+)/g)].map((m) => m[1]);
    expect(order).toEqual(['ccos.user.ask', 'web.open', 'web.wait', 'web.fill', 'web.wait', 'web.fill', 'web.wait', 'web.click', 'web.extract']);
  });

  it('names the failed and denied calls it left out', () => {
    expect(out.plan).toMatch(/;; left out: call \d+ web\.click failed \(selector_not_found/);
    expect(out.plan).toMatch(/;; left out: call \d+ web\.navigate denied \(not_allowlisted/);
    expect(out.plan).toContain('1 observation call(s)');
  });

  it('turns a snapshot ref into the selector its fingerprint recorded, with healing on', () => {
    expect(out.plan).toContain('(call :web.fill {:selector "#city" :text "{{city}}"} {:heal true :fingerprint {');
    expect(out.plan).not.toContain('e3');
  });

  it('lifts typed values into inputs; a password becomes a required input and is never written', () => {
    expect(out.inputs).toEqual([
      { name: 'city', required: false, default: 'Lyon', about: 'City' },
      { name: 'password', required: true, about: 'Password (secret: never written)' },
    ]);
    expect(out.plan).toContain(';; input password (required)');
    expect(out.plan).not.toContain('[REDACTED]');
    expect(out.plan).not.toContain(':secret');
  });

  it('pairs an intent with its result by call id and skips kinds it does not know', () => {
    const finished = finishedCalls(recording);
    expect(finished.filter((e) => e.call_id === 'c9')).toHaveLength(1);
    expect(finished.every((e) => e.kind === 'call')).toBe(true);
  });

  it('takes only the latest life of a session name (names restart with each process)', () => {
    const older = [call('web.open', { url: 'http://old.test/' }, { session: 's1' }), call('web.click', { selector: '#old' }, { ok: true })];
    const run = selectRun([...older, ...recording], { session: 's1' });
    expect(run.calls.some((e) => (e.params as { url?: string }).url === 'http://old.test/')).toBe(false);
  });

  it('an unknown plan or session is an error, not an empty plan', () => {
    expect(() => selectRun(recording, { planId: 'plan-nope' })).toThrow(/no calls of plan plan-nope/);
    expect(() => selectRun(recording, { session: 's9' })).toThrowError(expect.objectContaining({ code: 'session_not_found' }));
  });

  it('a click by a ref inside an iframe becomes {selector, frame} from its fingerprint; a nested frame is a named note', () => {
    const framed = [
      call('web.open', { url: 'http://shop.test/' }, { session: 's1' }, { session: null }),
      call('web.click', { ref: 'f1e4' }, { ok: true, fingerprint: fp({ role: 'button', name: 'Reject all', css: 'div > button', frame: '#cmp' }) }),
      call('web.click', { ref: 'f2e1' }, { ok: true, fingerprint: fp({ role: 'button', name: 'Deep', css: 'button' }) }),
    ];
    const plan = writeExportedPlan(selectRun(framed, { session: 's1' }).calls, 'session s1').plan;
    expect(plan).toContain('(call :web.wait {:selector "div > button" :frame "#cmp"} {:heal true');
    expect(plan).toContain('(call :web.click {:selector "div > button" :frame "#cmp"} {:heal true');
    expect(plan).toMatch(/;; left out: call 3 web\.click on ref f2e1 inside a nested iframe/);
  });
});
