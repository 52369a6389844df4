// Tree-walking evaluator. Async all the way down because any form may reach a
// `call`, which crosses to the host's policy chain and the browser.
import { SPECIALS } from './forms.js';
import { Budget, DEFAULT_LIMITS, type PlanLimits } from './limits.js';
import { planError, type Node, type StringPart, type Where } from './reader.js';
import { Env, RecurSignal, ReturnSignal, arity, type Result, type Tail } from './scope.js';
import {
  ArgError, Builtin, Closure, Keyword, isMap, keyName, lookup, setKey, show, typeName,
  type MapValue, type Runtime, type Value,
} from './values.js';

export interface PlanHooks {
  call(capability: string, params: Record<string, unknown>, where: Where, options?: Record<string, unknown>): Promise<unknown>;
  log?(message: string): void;
  /** [plans] max_steps / max_duration_s / max_bytes; defaults in limits.ts. */
  limits?: Partial<PlanLimits>;
  /** Values for `{{name}}` placeholders in the plan's string literals; a name without one stays as written. */
  inputs?: Record<string, string>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Evaluator implements Runtime {
  readonly budget: Budget;
  constructor(readonly hooks: PlanHooks) {
    this.budget = new Budget({ ...DEFAULT_LIMITS, ...hooks.limits });
  }

  async run(nodes: Node[], env: Env): Promise<Value> {
    try {
      let result: Value = null;
      for (const node of nodes) result = await this.value(node, env);
      return result;
    } catch (e) {
      if (e instanceof ReturnSignal) return e.value;
      throw e;
    }
  }

  log(message: string): void { this.hooks.log?.(message); }

  /** Evaluates outside tail position, where a `recur` is an error, so no signal can leak. */
  value(node: Node, env: Env): Promise<Value> {
    return this.eval(node, env, null) as Promise<Value>;
  }

  async eval(node: Node, env: Env, tail: Tail | null): Promise<Result> {
    switch (node.kind) {
      case 'nil': return null;
      case 'number': case 'boolean': return node.value;
      case 'string': return node.parts ? this.fill(node.parts) : node.value;
      case 'keyword': return new Keyword(node.name);
      case 'symbol': {
        const v = env.get(node.name);
        if (v === undefined) throw planError(node, `unknown symbol '${node.name}'`);
        return v;
      }
      case 'vector': {
        const out: Value[] = [];
        for (const item of node.items) out.push(await this.value(item, env));
        return out;
      }
      case 'map': {
        const out: MapValue = {};
        for (const [k, v] of node.entries) {
          const key = await this.value(k, env);
          setKey(out, this.guard(k, () => keyName(key)), await this.value(v, env));
        }
        return out;
      }
      case 'list': {
        if (node.items.length === 0) return [];
        this.budget.enter(node);
        try {
          if (this.budget.dueForYield()) await nextTurn();
          return await this.list(node, env, tail);
        } finally {
          this.budget.leave();
        }
      }
    }
  }

  private async list(node: Node & { kind: 'list' }, env: Env, tail: Tail | null): Promise<Result> {
    const head = node.items[0]!;
    const special = head.kind === 'symbol' ? SPECIALS[head.name] : undefined;
    if (special) return special(this, node, env, tail);
    const fn = await this.value(head, env);
    const args: Value[] = [];
    for (const item of node.items.slice(1)) args.push(await this.value(item, env));
    try {
      return await this.apply(fn, args);
    } catch (e) {
      if (!(e instanceof ArgError)) throw e;
      const who = fn instanceof Builtin ? `${fn.name}: ` : '';
      throw planError(node, who + e.message);
    }
  }

  /**
   * Placeholders are filled here, from the literal the plan's text wrote, and
   * nowhere else: a string a page returned at run time is never a template.
   */
  private fill(parts: StringPart[]): string {
    const inputs = this.hooks.inputs ?? {};
    return parts.map((p) => (typeof p === 'string' ? p : Object.hasOwn(inputs, p.input) ? inputs[p.input]! : `{{${p.input}}}`)).join('');
  }

  /** Evaluates a body: every form but the last is outside tail position. */
  async body(forms: Node[], env: Env, tail: Tail | null): Promise<Result> {
    let result: Result = null;
    for (let i = 0; i < forms.length; i++) {
      result = await this.eval(forms[i]!, env, i === forms.length - 1 ? tail : null);
    }
    return result;
  }

  /** Applies a function value; problems with the call itself are ArgErrors for the caller to locate. */
  async apply(fn: Value, args: Value[]): Promise<Value> {
    if (fn instanceof Builtin) {
      if (args.length < fn.min || args.length > fn.max) throw new ArgError(`expects ${arity(fn.min, fn.max)}, got ${args.length}`);
      return fn.impl(args, this);
    }
    if (fn instanceof Closure) {
      const expected = fn.params.length;
      if (args.length !== expected) throw new ArgError(`fn ${fn.name} expects ${arity(expected, expected)}, got ${args.length}`);
      for (;;) {
        const env = new Env(fn.env);
        fn.params.forEach((p, i) => env.define(p, args[i]!));
        const r = await this.body(fn.body, env, { arity: expected });
        if (!(r instanceof RecurSignal)) return r;
        args = r.args;
      }
    }
    // (:key m) reads a map, as in Clojure.
    if (fn instanceof Keyword) {
      if (args.length < 1 || args.length > 2) throw new ArgError(`keyword :${fn.name} expects 1 or 2 arguments, got ${args.length}`);
      const m = args[0]!;
      const found = isMap(m) ? lookup(m, fn.name) : undefined;
      return found === undefined ? (args[1] ?? null) : found;
    }
    throw new ArgError(`cannot call ${typeName(fn)} ${show(fn)}`.trimEnd());
  }

  /** Runs a value-level check and pins any ArgError on `where`. */
  guard<T>(where: Where, f: () => T): T {
    try { return f(); } catch (e) {
      if (e instanceof ArgError) throw planError(where, e.message);
      throw e;
    }
  }
}
