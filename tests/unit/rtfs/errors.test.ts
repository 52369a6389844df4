import { describe, expect, it } from 'vitest';
import { evaluatePlan, type PlanHooks } from '../../../host/rtfs/index.js';
import { WebcapError } from '../../../manifests/errors.js';
import { failure as failureOf } from '../../helpers/failure.js';

const okHooks: PlanHooks = { call: async () => ({ items: [] }) };

const failure = (src: string, hooks: PlanHooks = okHooks): Promise<WebcapError> => failureOf(evaluatePlan(src, hooks));

describe('RTFS evaluation errors carry plan:LINE:COL', () => {
  it.each([
    ['unknown symbol', '(do\n  (foo 1))', 2, 4, "unknown symbol 'foo'"],
    ['unknown symbol as argument', '(count\n   items)', 2, 4, "unknown symbol 'items'"],
    ['builtin arity', '(count [1] [2])', 1, 1, 'count: expects 1 argument, got 2'],
    ['builtin arity, range', '(get {})', 1, 1, 'get: expects 2 to 3 arguments, got 1'],
    ['fn arity', '(let [f (fn [a] a)]\n  (f 1 2))', 2, 3, 'fn anonymous expects 1 argument, got 2'],
    ['fn arity inside map', '(map (fn pair [a b] a) [1])', 1, 1, 'map: fn pair expects 2 arguments, got 1'],
    ['calling a number', '(do (1 2))', 1, 5, 'cannot call number 1'],
    ['calling nil', '(nil)', 1, 1, 'cannot call nil'],
    ['calling a string', '("web.open" {})', 1, 1, 'cannot call string web.open'],
    ['recur outside loop', '(do (recur 1))', 1, 5, 'recur must be in tail position'],
    ['recur not in tail position', '(loop [i 0]\n  (inc (recur i)))', 2, 8, 'recur must be in tail position'],
    ['recur arity', '(loop [i 0]\n  (if (< i 3) (recur 1 2) i))', 2, 15, 'recur expects 1 argument, got 2'],
    ['let without vector', '(let x 1)', 1, 6, 'let needs a binding vector'],
    ['let odd bindings', '(let [a] a)', 1, 6, 'let needs a binding vector'],
    ['let binding not a symbol', '(let [1 2] 3)', 1, 7, 'let binding must be a symbol'],
    ['loop odd bindings', '(loop [a 1 b] a)', 1, 7, 'loop needs a binding vector'],
    ['if arity', '(if)', 1, 1, 'if expects (if test then else?)'],
    ['fn without params', '(fn x)', 1, 1, 'fn needs a parameter vector'],
    ['fn param not a symbol', '(fn [:a] 1)', 1, 6, 'fn parameter must be a symbol'],
    ['return arity', '(return 1 2)', 1, 1, 'return expects (return value)'],
    ['call without id', '(call)', 1, 1, 'call expects'],
    ['call id not keyword or string', '(call 42 {})', 1, 7, 'call needs a capability id'],
    ['call params not a map', '(call :web.open\n  "https://x")', 2, 3, 'call params must be a map, got string'],
    ['call params hold a function', '(call :web.open {:url inc})', 1, 17, 'a function cannot be turned into JSON'],
    ['type error in builtin', '(+ 1 "a")', 1, 1, '+: expected a number, got string'],
    ['count of a number', '(count 5)', 1, 1, 'count: expected a collection, got number'],
    ['nth out of range', '(nth [1] 3)', 1, 1, 'nth: index 3 out of bounds for vector of 1'],
    ['bad map key', '{[1] 2}', 1, 2, 'map keys must be keywords, strings or numbers, got vector'],
    ['range step 0', '(range 0 1 0)', 1, 1, 'range: step must not be 0'],
  ])('%s', async (_name, src, line, column, message) => {
    const err = await failure(src);
    expect(err.code).toBe('invalid_params');
    expect(err.message).toContain(`plan:${line}:${column}: ${message}`);
    expect(err.message.startsWith(`plan:${line}:${column}: `)).toBe(true);
    expect(err.details).toEqual({ line, column });
  });

  it('a plan whose value is a function fails as invalid_params', async () => {
    const err = await failure('(fn [x] x)');
    expect(err.code).toBe('invalid_params');
  });

  it.each([
    ['timeout', 'waited 5000 ms for .item'],
    ['selector_not_found', 'no element matches .item'],
    ['consent_denied', 'user declined'],
  ] as const)('a %s from a call keeps its code and gains the call position', async (code, message) => {
    const hooks: PlanHooks = {
      async call(capability) {
        if (capability === 'web.wait') throw new WebcapError(code, message, { selector: '.item' });
        return { items: [] };
      },
    };
    const src = '(do\n  (call :web.open {:url "https://a.example.org"})\n  (map (fn [s] (call :web.wait {:selector s})) [".item"]))';
    const err = await failure(src, hooks);
    expect(err.code).toBe(code);
    expect(err.message).toBe(`plan:3:16: ${message}`);
    expect(err.details).toEqual({ selector: '.item', line: 3, column: 16 });
  });

  it('a plain Error from the hook becomes internal, still located', async () => {
    const err = await failure('(call :web.open {})', { call: async () => { throw new Error('boom'); } });
    expect(err.code).toBe('internal');
    expect(err.message).toBe('plan:1:1: boom');
    expect(err.details).toEqual({ line: 1, column: 1 });
  });

  it('stops at the first failing call', async () => {
    const seen: string[] = [];
    const hooks: PlanHooks = {
      async call(capability) {
        seen.push(capability);
        if (capability === 'web.click') throw new WebcapError('selector_not_found', 'no #go');
        return {};
      },
    };
    await failure('(call :web.open {:url "u"}) (call :web.click {:selector "#go"}) (call :web.close)', hooks);
    expect(seen).toEqual(['web.open', 'web.click']);
  });
});
