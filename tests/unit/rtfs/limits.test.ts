// Runaway plans stop with a clear code at the form that crossed the line:
// step budget, wall-clock budget, evaluation depth, reader nesting.
import { describe, expect, it } from 'vitest';
import { evaluatePlan, parsePlan, type PlanHooks } from '../../../host/rtfs/index.js';
import { MAX_DEPTH } from '../../../host/rtfs/limits.js';
import { MAX_NESTING } from '../../../host/rtfs/reader.js';
import { WebcapError } from '../../../manifests/errors.js';
import { failure } from '../../helpers/failure.js';

const noCalls: PlanHooks = { call: async () => { throw new Error('unexpected call'); } };


describe('plan limits', () => {
  it('stops (loop [i 0] (recur (inc i))) at max_steps with budget_exceeded and plan:LINE:COL', async () => {
    const e = await failure(evaluatePlan('(do\n  (loop [i 0] (recur (inc i))))', { ...noCalls, limits: { maxSteps: 5000 } }));
    expect(e.code).toBe('budget_exceeded');
    expect(e.message).toMatch(/^plan:2:\d+: the plan took more than 5000 steps \(\[plans\] max_steps\)/);
    expect(e.details).toMatchObject({ limit: 'plans.max_steps', line: 2 });
  });

  it('stops an endless loop with the default budget of 100,000 steps too', async () => {
    const e = await failure(evaluatePlan('(loop [i 0] (recur (inc i)))', noCalls));
    expect([e.code, e.message]).toEqual(['budget_exceeded', expect.stringMatching(/more than 100000 steps/)]);
  });

  it('counts capability calls as steps', async () => {
    let calls = 0;
    const hooks: PlanHooks = { call: async () => { calls++; return {}; }, limits: { maxSteps: 50 } };
    const e = await failure(evaluatePlan('(loop [] (call :web.status {}) (recur))', hooks));
    expect(e.code).toBe('budget_exceeded');
    expect(calls).toBeGreaterThan(5);
    expect(calls).toBeLessThan(50);
  });

  it('stops unbounded self-recursion through fn at the depth limit, not with a stack overflow', async () => {
    const e = await failure(evaluatePlan('(let [f (fn f [n] (+ 1 (f (inc n))))]\n  (f 0))', noCalls));
    expect(e.code).toBe('budget_exceeded');
    expect(e.message).toMatch(new RegExp(`^plan:1:\\d+: evaluation nested deeper than ${MAX_DEPTH} levels`));
  });

  it('lets recursion just under the depth limit finish', async () => {
    // Each level of this fn costs three nested forms (if, +, the call itself).
    const n = Math.floor(MAX_DEPTH / 3) - 5;
    expect(await evaluatePlan(`((fn sum [n] (if (= n 0) 0 (+ n (sum (dec n))))) ${n})`, noCalls)).toBe((n * (n + 1)) / 2);
  });

  it('stops a plan past max_duration_s with timeout, also while a call hangs', async () => {
    const e = await failure(evaluatePlan('(loop [i 0] (recur (inc i)))', { ...noCalls, limits: { maxDurationMs: 50, maxSteps: 1e12 } }));
    expect([e.code, e.message]).toEqual(['timeout', expect.stringMatching(/^plan:1:\d+: the plan ran longer than 0.05 s \(\[plans\] max_duration_s\)/)]);
    const hang: PlanHooks = { call: () => new Promise(() => undefined), limits: { maxDurationMs: 100 } };
    // The call never answers: only max_duration ends the plan before the test's timeout.
    const h = await failure(evaluatePlan('(do 1\n  (call :web.wait {:time 999999}))', hang));
    expect([h.code, h.message]).toEqual(['timeout', expect.stringMatching(/^plan:2:3: the plan ran longer/)]);
  });

  it('makes nesting deeper than the reader limit a parse error with a position, never internal (10,000 deep)', () => {
    const deep = `${'('.repeat(10_000)}${')'.repeat(10_000)}`;
    let err: unknown;
    try { parsePlan(deep); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(WebcapError);
    expect((err as WebcapError).code).toBe('invalid_params');
    expect((err as WebcapError).message).toBe(`plan:1:${MAX_NESTING + 1}: forms nested deeper than ${MAX_NESTING} levels`);
    const vectors = `(do\n ${'['.repeat(10_000)}${']'.repeat(10_000)})`;
    expect(() => parsePlan(vectors)).toThrow(/^plan:2:\d+: forms nested deeper/);
  });

  it('evaluates forms nested right at the reader limit', async () => {
    const src = `${'(do '.repeat(MAX_NESTING - 1)}(+ 1 2)${')'.repeat(MAX_NESTING - 1)}`;
    expect(await evaluatePlan(src, noCalls)).toBe(3);
  });
});
