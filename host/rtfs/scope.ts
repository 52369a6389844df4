// Scopes and the two control signals shared by the evaluator and special forms.
import type { Value } from './values.js';

export class Env {
  private readonly vars = new Map<string, Value>();
  constructor(private readonly parent: Env | null) {}
  define(name: string, v: Value): void { this.vars.set(name, v); }
  get(name: string): Value | undefined {
    return this.vars.has(name) ? this.vars.get(name) : this.parent?.get(name);
  }
}

/** Thrown (not an Error) so `return` unwinds loops, lets and fns up to the plan. */
export class ReturnSignal { constructor(readonly value: Value) {} }

/** Returned (not thrown) by a tail `recur`; only the enclosing loop or fn body sees it. */
export class RecurSignal { constructor(readonly args: Value[]) {} }

/** Where a `recur` in tail position would jump, and how many values it must bring. */
export interface Tail { arity: number }

export type Result = Value | RecurSignal;

export function arity(min: number, max: number): string {
  const n = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
  return `${n} argument${min === 1 && max === 1 ? '' : 's'}`;
}
