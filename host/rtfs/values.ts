// Runtime values. Maps are plain objects keyed by the key's *name*, so a map a
// plan writes as {:items [...]} and the JSON {"items": [...]} a capability
// returns are the same thing: `get`, `count`, `map` work on both unchanged,
// and turning a result back into JSON is a copy, not a translation.
import type { Node } from './reader.js';
import type { Env } from './scope.js';

export class Keyword {
  constructor(readonly name: string) {}
}

/** A user function from `(fn [params] body...)`; captures its defining scope. */
export class Closure {
  constructor(
    readonly name: string,
    readonly params: string[],
    readonly body: Node[],
    readonly env: Env,
  ) {}
}

export interface Runtime {
  apply(fn: Value, args: Value[]): Promise<Value>;
  log(message: string): void;
}

export class Builtin {
  constructor(
    readonly name: string,
    readonly min: number,
    readonly max: number, // Infinity for variadic
    readonly impl: (args: Value[], rt: Runtime) => Value | Promise<Value>,
  ) {}
}

export type MapValue = { [key: string]: Value };
export type Value = null | boolean | number | string | Keyword | Closure | Builtin | Value[] | MapValue;

/**
 * Thrown by builtins for bad arguments. It carries no location: the evaluator
 * knows which form applied the builtin and turns it into a located WebcapError.
 */
export class ArgError extends Error {}

function isFn(v: Value): v is Closure | Builtin {
  return v instanceof Closure || v instanceof Builtin;
}

export function isMap(v: Value): v is MapValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Keyword) && !isFn(v);
}

export function truthy(v: Value): boolean {
  return v !== null && v !== false;
}

/** Normalizes a map key: :items, "items" both address "items". */
export function keyName(k: Value): string {
  if (k instanceof Keyword) return k.name;
  if (typeof k === 'string') return k;
  if (typeof k === 'number') return String(k);
  throw new ArgError(`map keys must be keywords, strings or numbers, got ${typeName(k)}`);
}

/** Defines an own property, so a key like "__proto__" stays data, not a prototype. */
export function setKey(m: MapValue, key: string, v: Value): void {
  Object.defineProperty(m, key, { value: v, enumerable: true, writable: true, configurable: true });
}

export function lookup(m: MapValue, key: string): Value | undefined {
  return Object.hasOwn(m, key) ? m[key] : undefined;
}

export function typeName(v: Value): string {
  if (v === null) return 'nil';
  if (Array.isArray(v)) return 'vector';
  if (v instanceof Keyword) return 'keyword';
  if (isFn(v)) return 'function';
  if (isMap(v)) return 'map';
  return typeof v;
}

/** Plain JSON for capability params and the plan's result. */
export function toJson(v: Value): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Keyword) return v.name;
  if (Array.isArray(v)) return v.map(toJson);
  if (isFn(v)) throw new ArgError('a function cannot be turned into JSON');
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(v)) {
    Object.defineProperty(out, k, { value: toJson(item), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** What a capability returned, as a value: JSON already is one; undefined is nil. */
export function fromJson(x: unknown): Value {
  return x === undefined ? null : (x as Value);
}

export function equals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a instanceof Keyword || b instanceof Keyword) {
    return a instanceof Keyword && b instanceof Keyword && a.name === b.name;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equals(x, b[i]!));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equals(a[k]!, b[k]!));
  }
  return false;
}

/** Text for `str` and `log`: strings raw, nil empty, collections as JSON. */
export function show(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Keyword) return `:${v.name}`;
  if (isFn(v)) return `#<fn ${v.name}>`;
  return JSON.stringify(toJsonLoose(v));
}

function toJsonLoose(v: Value): unknown {
  if (isFn(v)) return `#<fn ${v.name}>`;
  if (Array.isArray(v)) return v.map(toJsonLoose);
  if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJsonLoose(x)]));
  return toJson(v);
}
