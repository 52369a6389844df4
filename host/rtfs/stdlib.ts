// The standard library: what a plan needs to page through results and shape
// them. Builtins throw ArgError; the evaluator adds the form's line:column.
import {
  ArgError, Builtin, equals, isMap, keyName, lookup, setKey, show, truthy, typeName,
  type MapValue, type Runtime, type Value,
} from './values.js';

const MAX_RANGE = 1_000_000; // a typo in (range ...) should fail, not eat the heap

function num(v: Value): number {
  if (typeof v !== 'number') throw new ArgError(`expected a number, got ${typeName(v)}`);
  return v;
}

/** Anything iterable as a sequence: nil is empty, a map yields [key value] pairs. */
function seq(v: Value): Value[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (isMap(v)) return Object.entries(v).map(([k, x]) => [k, x]);
  throw new ArgError(`expected a collection, got ${typeName(v)}`);
}

/** One lookup step; undefined means "absent", so a stored nil is still found. */
function getOr(coll: Value, k: Value): Value | undefined {
  if (isMap(coll)) return lookup(coll, keyName(k));
  if ((Array.isArray(coll) || typeof coll === 'string') && typeof k === 'number' && Number.isInteger(k)) {
    return k >= 0 && k < coll.length ? coll[k] : undefined;
  }
  return undefined;
}

function orDefault(found: Value | undefined, d: Value | undefined): Value {
  return found === undefined ? (d ?? null) : found;
}

function assocPairs(coll: Value, kvs: Value[]): Value {
  if (kvs.length % 2 !== 0) throw new ArgError('expects key value pairs');
  if (Array.isArray(coll)) {
    const out = [...coll];
    for (let i = 0; i < kvs.length; i += 2) {
      const k = kvs[i]!;
      if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k > out.length) {
        throw new ArgError(`index ${show(k)} out of bounds for a vector of ${out.length}`);
      }
      out[k] = kvs[i + 1]!;
    }
    return out;
  }
  if (coll !== null && !isMap(coll)) throw new ArgError(`expected a map or vector, got ${typeName(coll)}`);
  const out: MapValue = {};
  for (const [k, v] of Object.entries(coll ?? {})) setKey(out, k, v);
  for (let i = 0; i < kvs.length; i += 2) setKey(out, keyName(kvs[i]!), kvs[i + 1]!);
  return out;
}

function compare(test: (a: number, b: number) => boolean) {
  return (args: Value[]) => args.every((a, i) => i === 0 || test(num(args[i - 1]!), num(a)));
}

async function mapFn(args: Value[], rt: Runtime): Promise<Value> {
  const [f, ...colls] = args;
  const seqs = colls.map(seq);
  const n = Math.min(...seqs.map((s) => s.length));
  const out: Value[] = [];
  for (let i = 0; i < n; i++) out.push(await rt.apply(f!, seqs.map((s) => s[i]!)));
  return out;
}

async function filterFn([pred, coll]: Value[], rt: Runtime): Promise<Value> {
  const out: Value[] = [];
  for (const x of seq(coll!)) if (truthy(await rt.apply(pred!, [x]))) out.push(x);
  return out;
}

async function reduceFn(args: Value[], rt: Runtime): Promise<Value> {
  const f = args[0]!;
  const items = seq(args[args.length - 1]!);
  if (args.length === 2 && items.length === 0) return rt.apply(f, []);
  let acc: Value = args.length === 3 ? args[1]! : items[0]!;
  for (const x of args.length === 3 ? items : items.slice(1)) acc = await rt.apply(f, [acc, x]);
  return acc;
}

function rangeFn(args: Value[]): Value {
  const [start, end, step] = args.length === 1 ? [0, num(args[0]!), 1] : [num(args[0]!), num(args[1]!), args[2] === undefined ? 1 : num(args[2])];
  if (step === 0) throw new ArgError('step must not be 0');
  const out: number[] = [];
  for (let i = start; step > 0 ? i < end : i > end; i += step) {
    if (out.length >= MAX_RANGE) throw new ArgError(`more than ${MAX_RANGE} elements`);
    out.push(i);
  }
  return out;
}

type Impl = (args: Value[], rt: Runtime) => Value | Promise<Value>;
const defs: [string, number, number, Impl][] = [
  ['get', 2, 3, ([c, k, d]) => orDefault(getOr(c!, k!), d)],
  ['get-in', 2, 3, ([c, ks, d]) => {
    let cur: Value | undefined = c!;
    for (const k of seq(ks!)) if ((cur = getOr(cur, k)) === undefined) break;
    return orDefault(cur, d);
  }],
  ['assoc', 3, Infinity, ([c, ...kvs]) => assocPairs(c!, kvs)],
  ['count', 1, 1, ([c]) => (typeof c === 'string' ? c.length : seq(c!).length)],
  ['empty?', 1, 1, ([c]) => seq(c!).length === 0],
  ['first', 1, 1, ([c]) => seq(c!)[0] ?? null],
  ['last', 1, 1, ([c]) => seq(c!).at(-1) ?? null],
  ['rest', 1, 1, ([c]) => seq(c!).slice(1)],
  ['nth', 2, 3, ([c, i, d]) => {
    const found = getOr(c!, num(i!));
    if (found !== undefined) return found;
    if (d !== undefined) return d;
    throw new ArgError(`index ${i} out of bounds for ${typeName(c!)} of ${seq(c!).length}`);
  }],
  ['concat', 0, Infinity, (cs) => cs.flatMap((c) => seq(c))],
  ['conj', 1, Infinity, ([c, ...xs]) => {
    if (isMap(c!)) return assocPairs(c!, xs.flatMap((x) => (Array.isArray(x) && x.length === 2 ? x : fail('conj onto a map takes [key value] pairs'))));
    if (c !== null && !Array.isArray(c)) throw new ArgError(`expected a vector or map, got ${typeName(c!)}`);
    return [...(c ?? []), ...xs];
  }],
  ['keys', 1, 1, ([m]) => seq(m!).map((e) => (e as Value[])[0]!)],
  ['vals', 1, 1, ([m]) => seq(m!).map((e) => (e as Value[])[1]!)],
  ['contains?', 2, 2, ([c, k]) => getOr(c!, k!) !== undefined],
  ['map', 2, Infinity, mapFn],
  ['filter', 2, 2, filterFn],
  ['reduce', 2, 3, reduceFn],
  ['range', 1, 3, rangeFn],
  ['vector', 0, Infinity, (xs) => xs],
  ['hash-map', 0, Infinity, (kvs) => assocPairs(null, kvs)],
  ['str', 0, Infinity, (xs) => xs.map(show).join('')],
  ['log', 0, Infinity, (xs, rt) => { rt.log(xs.map(show).join(' ')); return null; }],
  ['=', 1, Infinity, (xs) => xs.every((x) => equals(xs[0]!, x))],
  ['not=', 1, Infinity, (xs) => !xs.every((x) => equals(xs[0]!, x))],
  ['not', 1, 1, ([x]) => !truthy(x!)],
  ['nil?', 1, 1, ([x]) => x === null],
  ['<', 1, Infinity, compare((a, b) => a < b)],
  ['>', 1, Infinity, compare((a, b) => a > b)],
  ['<=', 1, Infinity, compare((a, b) => a <= b)],
  ['>=', 1, Infinity, compare((a, b) => a >= b)],
  ['+', 0, Infinity, (xs) => xs.reduce<number>((a, x) => a + num(x), 0)],
  ['*', 0, Infinity, (xs) => xs.reduce<number>((a, x) => a * num(x), 1)],
  ['-', 1, Infinity, ([x, ...xs]) => (xs.length ? xs.reduce<number>((a, y) => a - num(y), num(x!)) : -num(x!))],
  ['inc', 1, 1, ([x]) => num(x!) + 1],
  ['dec', 1, 1, ([x]) => num(x!) - 1],
];

function fail(message: string): never {
  throw new ArgError(message);
}

export const STDLIB: readonly Builtin[] = defs.map(([name, min, max, impl]) => new Builtin(name, min, max, impl));
