// What stops a runaway plan: a step budget, a wall-clock budget and a depth
// limit, each reported at the form that crossed it (plan:LINE:COL). A step is
// one evaluated form application: a function or capability call, a special
// form, and so one per loop iteration (its recur) at least.
// Checked inline on every step, not by a timer: a loop that never calls out
// never yields to the event loop, so a timer would never fire. For the same
// reason the evaluator gives the event loop a turn every few milliseconds
// (dueForYield), so a signal handler (SIGTERM) can always run.
import { DEFAULT_MAX_BYTES, planError, type Where } from './reader.js';

/** Deepest evaluation nesting (forms inside forms, function calls inside calls). */
export const MAX_DEPTH = 1000;

export interface PlanLimits {
  /** [plans] max_steps */
  maxSteps: number;
  /** [plans] max_duration_s, in ms */
  maxDurationMs: number;
  /** [plans] max_bytes: larger plans are refused before reading. */
  maxBytes: number;
}

export const DEFAULT_LIMITS: PlanLimits = { maxSteps: 100_000, maxDurationMs: 3_600_000, maxBytes: DEFAULT_MAX_BYTES };

/** How long evaluation may hold the event loop between turns it gives back. */
const YIELD_EVERY_MS = 20;

export class Budget {
  private steps = 0;
  private depth = 0;
  private readonly deadline: number;
  private lastYield = Date.now();
  /** The form being evaluated most recently: where a deadline that passes during a call is reported. */
  current: Where = { line: 1, column: 1 };

  constructor(readonly limits: PlanLimits) {
    this.deadline = Date.now() + limits.maxDurationMs;
  }

  enter(where: Where): void {
    this.current = where;
    if (++this.steps > this.limits.maxSteps) {
      throw planError(where, `the plan took more than ${this.limits.maxSteps} steps ([plans] max_steps): a loop or recursion that does not end?`, 'budget_exceeded', { limit: 'plans.max_steps', steps: this.limits.maxSteps });
    }
    if (Date.now() > this.deadline) throw this.overdue(where);
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0; // the error unwinds every level; leave() must not go negative either way
      throw planError(where, `evaluation nested deeper than ${MAX_DEPTH} levels: unbounded recursion?`, 'budget_exceeded', { limit: 'depth', depth: MAX_DEPTH });
    }
  }

  /** True every YIELD_EVERY_MS: the evaluator then awaits a macrotask, so timers and signals get their turn. */
  dueForYield(): boolean {
    const now = Date.now();
    if (now - this.lastYield < YIELD_EVERY_MS) return false;
    this.lastYield = now;
    return true;
  }

  leave(): void {
    if (this.depth > 0) this.depth--;
  }

  overdue(where: Where = this.current) {
    const s = this.limits.maxDurationMs / 1000;
    return planError(where, `the plan ran longer than ${s} s ([plans] max_duration_s)`, 'timeout', { limit: 'plans.max_duration_s', seconds: s });
  }

  /** ms left before the deadline (for racing a capability call that does not return). */
  remaining(): number {
    return this.deadline - Date.now();
  }
}
