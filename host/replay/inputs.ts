// Inputs of a plan: `{{name}}` placeholders (the site-profile task syntax)
// filled from `webcap run PLAN --input name=value`, with the defaults an
// exported plan's header records (`;; input city = "Lyon"`). Secret inputs
// have no default: the run fails before its first call until they are given.
import { WebcapError } from '../../manifests/errors.js';

export const EXPORT_MARK = 'webcap:exported-plan';

export interface PlanInput { name: string; required: boolean; default?: string; about?: string }

const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const HEADER_INPUT = /^;;\s*input\s+(\w+)\s*=\s*("(?:[^"\\]|\\.)*")/gm;

export function isExportedPlan(source: string): boolean {
  return source.includes(EXPORT_MARK);
}

/** The values each placeholder gets: --input wins over the header's default; a missing one is invalid_params. */
export function planInputs(source: string, given: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const m of source.matchAll(HEADER_INPUT)) values[m[1]!] = JSON.parse(m[2]!) as string;
  Object.assign(values, given);
  const needed = [...new Set([...source.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  const missing = needed.filter((n) => values[n] === undefined);
  if (missing.length) {
    throw new WebcapError('invalid_params', `the plan needs ${missing.length === 1 ? 'the input' : 'the inputs'} ${missing.map((m) => `"${m}"`).join(', ')}: give each with --input NAME=VALUE`, { missing });
  }
  return values;
}

/** Params with every {{name}} in a string replaced; strings without one are left as they are. */
export function fillPlaceholders(v: unknown, values: Record<string, string>): unknown {
  if (typeof v === 'string') return v.includes('{{') ? v.replace(PLACEHOLDER, (whole, k: string) => values[k] ?? whole) : v;
  if (Array.isArray(v)) return v.map((x) => fillPlaceholders(x, values));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillPlaceholders(x, values)]));
  return v;
}

/** `--input k=v` pairs (repeatable) as a map; a pair without '=' is invalid_params. */
export function parseInputPairs(pairs: string[]): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new WebcapError('invalid_params', `--input expects name=value, got "${pair}"`, { field: 'input' });
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
}
