// Inputs of a plan: `{{name}}` placeholders (the site-profile task syntax)
// filled from `webcap run PLAN --input name=value`, with the defaults an
// exported plan's header records (`;; input city = "Lyon"`). Secret inputs
// have no default: the run fails before its first call until they are given.
// Placeholders are syntax: the reader finds them in the plan's string
// literals (a `\{{` there is text), and the evaluator fills those literals
// only, so a value a page returns at run time is never filled.
import { WebcapError } from '../../manifests/errors.js';
import { checkIdentifier } from '../../manifests/identifier.js';
import { read, type Node } from '../rtfs/reader.js';

export const EXPORT_MARK = 'webcap:exported-plan';

export interface PlanInput { name: string; required: boolean; default?: string; about?: string }

const HEADER_INPUT = /^;;\s*input\s+(\w+)\s*=\s*("(?:[^"\\]|\\.)*")/;

/** The values each placeholder gets: --input wins over the header's default; a missing one is invalid_params. */
export function planInputs(source: string, given: Record<string, string>, maxBytes?: number): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of leadingComments(source)) {
    const m = HEADER_INPUT.exec(line);
    const [quoted] = m ? read(m[2]!) : [];
    if (m && quoted?.kind === 'string') values[m[1]!] = quoted.value;
  }
  Object.assign(values, given);
  const needed = [...placeholderNames(read(source, maxBytes))];
  const missing = needed.filter((n) => !Object.hasOwn(values, n));
  if (missing.length) {
    throw new WebcapError('invalid_params', `the plan needs ${missing.length === 1 ? 'the input' : 'the inputs'} ${missing.map((m) => `"${m}"`).join(', ')}: give each with --input NAME=VALUE`, { missing });
  }
  return values;
}

/** The comment lines a plan starts with (an export's header), and only those. */
function leadingComments(source: string): string[] {
  const out: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith(';;')) break;
    out.push(line);
  }
  return out;
}

/** Every `{{name}}` the plan's string literals hold. */
function placeholderNames(nodes: Node[]): Set<string> {
  const names = new Set<string>();
  const walk = (n: Node): void => {
    if (n.kind === 'string') n.parts?.forEach((p) => { if (typeof p !== 'string') names.add(p.input); });
    else if (n.kind === 'list' || n.kind === 'vector') n.items.forEach(walk);
    else if (n.kind === 'map') n.entries.forEach(([k, v]) => { walk(k); walk(v); });
  };
  nodes.forEach(walk);
  return names;
}

/** `--input k=v` pairs (repeatable) as a map; a pair without '=' is invalid_params. */
export function parseInputPairs(pairs: string[]): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new WebcapError('invalid_params', '--input expects name=value (the name before the first "=")', { field: 'input' });
    return [checkIdentifier(pair.slice(0, at), '--input name'), pair.slice(at + 1)];
  }));
}
