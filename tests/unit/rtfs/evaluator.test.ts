import { describe, expect, it } from 'vitest';
import { evaluatePlan, type PlanHooks } from '../../../host/rtfs/index.js';

const noCalls: PlanHooks = { call: async () => { throw new Error('unexpected call'); } };
const run = (src: string, hooks: PlanHooks = noCalls) => evaluatePlan(src, hooks);

describe('RTFS evaluator: forms', () => {
  it.each([
    ['empty plan', '', null],
    ['last top-level form wins', '1 2 3', 3],
    ['do', '(do 1 2 "three")', 'three'],
    ['let is sequential', '(let [a 2 b (* a 10)] (+ a b))', 22],
    ['let shadows', '(let [x 1] (let [x 2] x))', 2],
    ['if true', '(if (< 1 2) :yes :no)', 'yes'],
    ['if false, no else', '(if nil 1)', null],
    ['only nil and false are falsy', '[(if 0 1 2) (if "" 1 2) (if [] 1 2) (if false 1 2)]', [1, 1, 1, 2]],
    ['when', '[(when true 1 2) (when false 1)]', [2, null]],
    ['fn closure', '(let [n 10 add (fn [x] (+ x n))] (add 5))', 15],
    ['named fn recursion', '((fn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) 5)', 120],
    ['fn recur', '((fn [n acc] (if (= n 0) acc (recur (dec n) (+ acc n)))) 100 0)', 5050],
    ['loop/recur', '(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc i)) acc))', [0, 1, 2]],
    ['loop closures keep their iteration', '(map (fn [f] (f)) (loop [i 0 fs []] (if (< i 3) (recur (inc i) (conj fs (fn [] i))) fs)))', [0, 1, 2]],
    ['and short-circuits', '(and 1 nil (undefined-symbol))', null],
    ['or short-circuits', '(or false 7 (undefined-symbol))', 7],
    ['and/or empty', '[(and) (or)]', [true, null]],
    ['keyword as function', '(:name {:name "x"})', 'x'],
    ['map literal evaluates values', '(let [u "https://a"] {:url u :n (+ 1 2)})', { url: 'https://a', n: 3 }],
    ['result keywords become strings', '{:status :ok :tags [:a :b] :none nil}', { status: 'ok', tags: ['a', 'b'], none: null }],
  ])('%s', async (_name, src, expected) => {
    expect(await run(src)).toEqual(expected);
  });

  it('return ends the plan from inside loop, let and fn', async () => {
    const calls: string[] = [];
    const hooks: PlanHooks = { call: async (cap) => { calls.push(cap); return {}; } };
    const src = `
      (do
        (let [f (fn [x] (when (= x 2) (return {:stopped-at x})))]
          (loop [i 0]
            (f i)
            (call :web.click {:selector "#next"})
            (recur (inc i))))
        (call :web.close))`;
    expect(await run(src, hooks)).toEqual({ 'stopped-at': 2 });
    expect(calls).toEqual(['web.click', 'web.click']);
  });

  it('return from inside map stops the whole plan', async () => {
    expect(await run('(do (map (fn [x] (when (= x 2) (return "early"))) [1 2 3]) "late")')).toBe('early');
  });
});

describe('RTFS evaluator: standard library', () => {
  it.each([
    ['get keyword key', '(get {:a 1} :a)', 1],
    ['get string key', '(get {"a" 1} "a")', 1],
    ['get default', '(get {:a 1} :b 9)', 9],
    ['get present nil ignores default', '(get {:a nil} :a 9)', null],
    ['get vector index', '(get [10 20] 1)', 20],
    ['get out of range', '(get [10 20] 5 :none)', 'none'],
    ['get nil', '(get nil :a)', null],
    ['get-in', '(get-in {:a {:b [1 {:c 3}]}} [:a :b 1 :c])', 3],
    ['get-in missing', '(get-in {:a {}} [:a :x :y] "d")', 'd'],
    ['assoc', '(assoc {:a 1} :b 2 :a 3)', { a: 3, b: 2 }],
    ['assoc vector', '(assoc [1 2] 2 3)', [1, 2, 3]],
    ['count', '[(count [1 2]) (count {:a 1}) (count "abc") (count nil)]', [2, 1, 3, 0]],
    ['first/rest/last', '[(first [1 2 3]) (rest [1 2 3]) (last [1 2 3]) (first []) (rest nil)]', [1, [2, 3], 3, null, []]],
    ['nth', '[(nth [1 2] 0) (nth [1 2] 5 :d)]', [1, 'd']],
    ['concat', '(concat [1] [] nil [2 3])', [1, 2, 3]],
    ['conj', '[(conj [1] 2 3) (conj nil 1) (conj {:a 1} [:b 2])]', [[1, 2, 3], [1], { a: 1, b: 2 }]],
    ['map', '(map inc [1 2 3])', [2, 3, 4]],
    ['map over two', '(map + [1 2 3] [10 20])', [11, 22]],
    ['filter', '(filter (fn [x] (> x 1)) [1 2 3])', [2, 3]],
    ['reduce', '[(reduce + [1 2 3]) (reduce + 10 [1 2]) (reduce + [])]', [6, 13, 0]],
    ['range', '[(range 3) (range 1 4) (range 0 10 4) (range 3 0 -1)]', [[0, 1, 2], [1, 2, 3], [0, 4, 8], [3, 2, 1]]],
    ['str', '(str "a" 1 :k nil [1 2] {:x "y"})', 'a1:k[1,2]{"x":"y"}'],
    ['=', '[(= 1 1) (= [1 {:a :b}] [1 {:a :b}]) (= :a :a) (= :a "a") (= 1 2)]', [true, true, true, false, false]],
    ['not', '[(not nil) (not 0)]', [true, false]],
    ['comparisons', '[(< 1 2 3) (< 1 3 2) (> 3 2) (<= 2 2) (>= 1 2)]', [true, false, true, true, false]],
    ['arithmetic', '[(+) (+ 1 2.5) (- 5) (- 10 3 2) (* 2 3 4) (inc 1) (dec 1)]', [0, 3.5, -5, 5, 24, 2, 0]],
    ['empty?', '[(empty? []) (empty? nil) (empty? {:a 1}) (empty? "")]', [true, true, false, true]],
    ['vector/hash-map', '[(vector 1 :a) (hash-map :a 1 "b" 2)]', [[1, 'a'], { a: 1, b: 2 }]],
    ['keys/vals/contains?', '[(keys {:a 1}) (vals {:a 1}) (contains? {:a nil} :a) (contains? [1] 3)]', [['a'], [1], true, false]],
    ['map over a map yields pairs', '(map first {:a 1 :b 2})', ['a', 'b']],
  ])('%s', async (_name, src, expected) => {
    expect(await run(src)).toEqual(expected);
  });

  it('log joins its arguments and sends them to the hook', async () => {
    const lines: string[] = [];
    const hooks: PlanHooks = { call: noCalls.call, log: (m) => lines.push(m) };
    expect(await run('(log "page" 2 :done {:n 1})', hooks)).toBeNull();
    expect(lines).toEqual(['page 2 :done {"n":1}']);
    await expect(run('(log "no hook is fine")')).resolves.toBeNull();
  });
});

describe('RTFS evaluator: capability calls', () => {
  it('pages through 5 pages with loop/recur, concatenating items', async () => {
    let page = 1;
    const calls: { capability: string; params: Record<string, unknown> }[] = [];
    const hooks: PlanHooks = {
      async call(capability, params) {
        calls.push({ capability, params });
        if (capability === 'web.extract') {
          return { items: [{ name: `r${page}a` }, { name: `r${page}b` }], has_next: page < 5 };
        }
        if (capability === 'web.click') page++;
        return { ok: true };
      },
    };
    const src = `
      (do
        (call :web.open {:url "https://shop.example.org/list"})
        (loop [page 1 acc []]
          (let [res (call :web.extract {:selector ".item" :schema {:name ".name"}})
                all (concat acc (get res :items))]
            (if (get res "has_next")
              (do (call :web.click {:selector "a.next"})
                  (recur (inc page) all))
              (return {:pages page :count (count all) :items all})))))`;
    const result = (await run(src, hooks)) as { pages: number; count: number; items: { name: string }[] };
    expect(result.pages).toBe(5);
    expect(result.count).toBe(10);
    expect(result.items.map((i) => i.name)).toEqual(['r1a', 'r1b', 'r2a', 'r2b', 'r3a', 'r3b', 'r4a', 'r4b', 'r5a', 'r5b']);
    expect(calls.filter((c) => c.capability === 'web.click')).toHaveLength(4);
    expect(calls.filter((c) => c.capability === 'web.extract')).toHaveLength(5);
    expect(calls[1]!.params).toEqual({ selector: '.item', schema: { name: '.name' } });
  });

  it('converts params to JSON recursively and accepts a string id and no params', async () => {
    const calls: [string, unknown][] = [];
    const hooks: PlanHooks = { call: async (c, p) => { calls.push([c, p]); return null; } };
    await run('(call "web.keypress" {:keys ["Enter" :Tab] :nested {:deep [{:k :v :n nil}]} "plain" 1.5}) (call :web.close)', hooks);
    expect(calls).toEqual([
      ['web.keypress', { keys: ['Enter', 'Tab'], nested: { deep: [{ k: 'v', n: null }] }, plain: 1.5 }],
      ['web.close', {}],
    ]);
  });

  it('JSON results work with get, count, first, map and keyword lookup', async () => {
    const hooks: PlanHooks = { call: async () => ({ items: [{ name: 'a', tags: ['x'] }, { name: 'b', tags: [] }] }) };
    const src = `(let [r (call :web.extract {:selector "li"})]
                   [(count (get r :items)) (get (first (:items r)) :name) (map (fn [i] (count (get i "tags"))) (get r :items))
                    (get-in r [:items 1 :name])])`;
    expect(await run(src, hooks)).toEqual([2, 'a', [1, 0], 'b']);
  });

  it('an undefined result is nil', async () => {
    expect(await run('(call :web.close)', { call: async () => undefined })).toBeNull();
  });
});
