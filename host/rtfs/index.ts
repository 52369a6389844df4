// RTFS plans: the s-expression language plans are written in. The host
// supplies `call` (its governed capability path); nothing here touches the
// network or the browser.
import { Evaluator, type PlanHooks } from './evaluator.js';
import { Env } from './scope.js';
import { read, type Node } from './reader.js';
import { STDLIB } from './stdlib.js';
import { ArgError, toJson } from './values.js';
import { WebcapError } from '../../manifests/errors.js';

export type { PlanHooks } from './evaluator.js';
export type { Node, StringPart, Where } from './reader.js';

/** Parses a plan; syntax errors and a plan over maxBytes throw WebcapError('invalid_params', 'plan:LINE:COL: ...'). */
export function parsePlan(source: string, maxBytes?: number): Node[] {
  return read(source, maxBytes);
}

/** Runs a plan; its value (or what `return` got) comes back as plain JSON. */
export async function evaluatePlan(source: string, hooks: PlanHooks): Promise<unknown> {
  const nodes = parsePlan(source, hooks.limits?.maxBytes);
  const root = new Env(null);
  for (const fn of STDLIB) root.define(fn.name, fn);
  const value = await new Evaluator(hooks).run(nodes, root);
  try {
    return toJson(value);
  } catch (e) {
    if (e instanceof ArgError) throw new WebcapError('invalid_params', `plan: result: ${e.message}`);
    throw e;
  }
}
