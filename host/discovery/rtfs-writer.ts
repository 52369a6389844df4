// Writes RTFS source text from JSON values and task steps, for plans that
// discovery generates. The output reads like a hand-written plan (one call per
// line, `let` for results a later step or the return uses).
import type { TaskStep } from '../../manifests/site-profile.js';

export function rtfsValue(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'string') return JSON.stringify(v);       // JSON string escapes are RTFS's
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(rtfsValue).join(' ')}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  return `{${entries.map(([k, x]) => `${/^[A-Za-z_][\w.-]*$/.test(k) ? `:${k}` : JSON.stringify(k)} ${rtfsValue(x)}`).join(' ')}}`;
}

export function rtfsCall(step: TaskStep): string {
  return `(call :${step.call} ${rtfsValue(step.args ?? {})})`;
}

/** Steps in order; a step with `as` binds its result for the rest; `returns` names what the plan returns. */
export function rtfsBody(steps: TaskStep[], returns: string | undefined, indent = '  '): string {
  const lines: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (step.as) {
      const rest = rtfsBody(steps.slice(i + 1), returns, `${indent}  `);
      lines.push(`${indent}(let [${step.as} ${rtfsCall(step)}]\n${rest})`);
      return lines.join('\n');
    }
    lines.push(`${indent}${rtfsCall(step)}`);
  }
  if (returns) lines.push(`${indent}(return ${returns})`);
  return lines.join('\n');
}
