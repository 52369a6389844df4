// Special forms: the syntax whose arguments are not simply evaluated first
// (bindings, branches, short-circuits, jumps, and the capability call).
import { WebcapError, toWebcapError } from '../../manifests/errors.js';
import type { Evaluator } from './evaluator.js';
import { planError, type Node } from './reader.js';
import { Env, RecurSignal, ReturnSignal, arity, type Result, type Tail } from './scope.js';
import { Closure, Keyword, fromJson, isMap, toJson, truthy, typeName, type Value } from './values.js';

export type List = Extract<Node, { kind: 'list' }>;
type Special = (ev: Evaluator, form: List, env: Env, tail: Tail | null) => Promise<Result>;

function symbolName(node: Node, what: string): string {
  if (node.kind !== 'symbol') throw planError(node, `${what} must be a symbol`);
  return node.name;
}

/** Checks a special form's size, counting forms after the head. */
function shape(form: List, min: number, max: number, usage: string): void {
  const n = form.items.length - 1;
  if (n < min || n > max) throw planError(form, `${(form.items[0] as { name: string }).name} expects ${usage}`);
}

async function bindings(ev: Evaluator, form: List, env: Env, what: string): Promise<{ names: string[]; env: Env }> {
  const vec = form.items[1];
  if (vec?.kind !== 'vector' || vec.items.length % 2 !== 0) {
    throw planError(vec ?? form, `${what} needs a binding vector of name value pairs, e.g. (${what} [x 1] ...)`);
  }
  const scope = new Env(env);
  const names: string[] = [];
  for (let i = 0; i < vec.items.length; i += 2) {
    const name = symbolName(vec.items[i]!, `${what} binding`);
    scope.define(name, await ev.value(vec.items[i + 1]!, scope)); // sequential: later see earlier
    names.push(name);
  }
  return { names, env: scope };
}

async function loop(ev: Evaluator, form: List, env: Env): Promise<Value> {
  const { names, env: first } = await bindings(ev, form, env, 'loop');
  let scope = first;
  for (;;) {
    const r = await ev.body(form.items.slice(2), scope, { arity: names.length });
    if (!(r instanceof RecurSignal)) return r;
    // A fresh scope per iteration, so closures made in one keep that iteration's values.
    scope = new Env(env);
    names.forEach((n, i) => scope.define(n, r.args[i]!));
  }
}

async function recur(ev: Evaluator, form: List, env: Env, tail: Tail | null): Promise<RecurSignal> {
  if (!tail) throw planError(form, 'recur must be in tail position of a loop or fn');
  const args: Value[] = [];
  for (const item of form.items.slice(1)) args.push(await ev.value(item, env));
  if (args.length !== tail.arity) throw planError(form, `recur expects ${arity(tail.arity, tail.arity)}, got ${args.length}`);
  return new RecurSignal(args);
}

function closure(form: List, env: Env): Closure {
  const items = form.items.slice(1);
  const first = items[0];
  const name = first?.kind === 'symbol' ? (items.shift(), first.name) : '';
  const params = items.shift();
  if (params?.kind !== 'vector') throw planError(params ?? form, 'fn needs a parameter vector, e.g. (fn [x] ...)');
  const closureEnv = name ? new Env(env) : env;
  const fn = new Closure(name || 'anonymous', params.items.map((p) => symbolName(p, 'fn parameter')), items, closureEnv);
  if (name) closureEnv.define(name, fn); // lets a named fn call itself
  return fn;
}

async function call(ev: Evaluator, form: List, env: Env): Promise<Value> {
  const [, capNode, paramsNode, optionsNode] = form.items;
  const cap = await ev.value(capNode!, env);
  if (!(cap instanceof Keyword) && typeof cap !== 'string') {
    throw planError(capNode!, `call needs a capability id (keyword or string), got ${typeName(cap)}`);
  }
  const params = paramsNode ? await ev.value(paramsNode, env) : {};
  if (!isMap(params)) throw planError(paramsNode!, `call params must be a map, got ${typeName(params)}`);
  const json = ev.guard(paramsNode ?? form, () => toJson(params)) as Record<string, unknown>;
  const where = { line: form.line, column: form.column };
  // Options for the runner, not the capability ({:heal true :fingerprint {…}}).
  const optionValue = optionsNode ? await ev.value(optionsNode, env) : undefined;
  const options = optionsNode && optionValue !== undefined ? ev.guard(optionsNode, () => toJson(optionValue)) : undefined;
  let timer: NodeJS.Timeout | undefined;
  // A call that outlives [plans] max_duration_s stops the plan at this form (the call itself ends on its own timeout).
  const overdue = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(ev.budget.overdue(where)), Math.max(0, ev.budget.remaining())); });
  try {
    return fromJson(await Promise.race([ev.hooks.call(cap instanceof Keyword ? cap.name : cap, json, where, options as Record<string, unknown> | undefined), overdue]));
  } catch (e) {
    if (e instanceof WebcapError && e.details.limit === 'plans.max_duration_s') throw e;
    // Keep the policy's code (not_allowlisted, timeout, ...) so callers can branch on it.
    const err = toWebcapError(e);
    throw new WebcapError(err.code, `plan:${where.line}:${where.column}: ${err.message}`, { ...err.details, ...where });
  } finally {
    clearTimeout(timer);
  }
}

/** and/or: the last operand is in tail position, as in Clojure. */
function shortCircuit(stopWhen: boolean, empty: Value): Special {
  return async (ev, f, env, tail) => {
    let v: Result = empty;
    for (let i = 1; i < f.items.length; i++) {
      v = await ev.eval(f.items[i]!, env, i === f.items.length - 1 ? tail : null);
      if (v instanceof RecurSignal || truthy(v) === stopWhen) return v;
    }
    return v;
  };
}

export const SPECIALS: Record<string, Special> = {
  do: (ev, f, env, tail) => ev.body(f.items.slice(1), env, tail),
  let: async (ev, f, env, tail) => ev.body(f.items.slice(2), (await bindings(ev, f, env, 'let')).env, tail),
  if: async (ev, f, env, tail) => {
    shape(f, 2, 3, '(if test then else?)');
    const branch = truthy(await ev.value(f.items[1]!, env)) ? f.items[2] : f.items[3];
    return branch ? ev.eval(branch, env, tail) : null;
  },
  when: async (ev, f, env, tail) => {
    shape(f, 1, Infinity, '(when test body...)');
    return truthy(await ev.value(f.items[1]!, env)) ? ev.body(f.items.slice(2), env, tail) : null;
  },
  and: shortCircuit(false, true),
  or: shortCircuit(true, null),
  fn: async (_ev, f, env) => closure(f, env),
  loop: (ev, f, env) => loop(ev, f, env),
  recur: (ev, f, env, tail) => recur(ev, f, env, tail),
  return: async (ev, f, env) => {
    shape(f, 0, 1, '(return value)');
    throw new ReturnSignal(f.items[1] ? await ev.value(f.items[1], env) : null);
  },
  call: async (ev, f, env) => {
    shape(f, 1, 3, '(call :capability.id {params} {options}?)');
    return call(ev, f, env);
  },
};
