// A plan is read and checked before its first call, so a typo fails at once
// (plan:LINE:COL) instead of after a browser started and half the plan ran:
// unknown symbols, wrong arity for special forms and builtins, and call of a
// capability id no manifest declares. Only what is certain without running
// is checked (a computed capability id is left to run time).
import { loadManifests } from '../../manifests/load.js';
import { shownCapabilityId } from '../redact/capability-id.js';
import { planError, read, type Node } from './reader.js';
import { STDLIB } from './stdlib.js';

const FORM_ARITY: Record<string, [number, number, string]> = {
  if: [2, 3, '(if test then else?)'],
  when: [1, Infinity, '(when test body...)'],
  return: [0, 1, '(return value)'],
  call: [1, 3, '(call :capability.id {params} {options}?)'],
};
const SPECIAL = new Set(['do', 'let', 'if', 'when', 'and', 'or', 'fn', 'loop', 'recur', 'return', 'call']);
const BUILTINS = new Map(STDLIB.map((b) => [b.name, b]));

const arity = (min: number, max: number) => (min === max ? `${min} argument${min === 1 ? '' : 's'}` : max === Infinity ? `at least ${min} arguments` : `${min} to ${max} arguments`);

export function checkPlan(source: string, capabilityIds: ReadonlySet<string> = new Set(loadManifests().map((m) => m.id)), maxBytes?: number): void {
  const walk = (node: Node, scope: ReadonlySet<string>): void => {
    switch (node.kind) {
      case 'symbol':
        if (!scope.has(node.name) && !BUILTINS.has(node.name)) throw planError(node, `unknown symbol '${node.name}'`);
        return;
      case 'vector': node.items.forEach((n) => walk(n, scope)); return;
      case 'map': node.entries.forEach(([k, v]) => { walk(k, scope); walk(v, scope); }); return;
      case 'list': return list(node as Extract<Node, { kind: 'list' }>, scope);
      default:
    }
  };
  const list = (form: Extract<Node, { kind: 'list' }>, scope: ReadonlySet<string>): void => {
    const [head, ...args] = form.items;
    if (!head) return;
    const name = head.kind === 'symbol' && !scope.has(head.name) ? head.name : undefined;
    if (name && SPECIAL.has(name)) return special(name, form, args, scope);
    const builtin = name ? BUILTINS.get(name) : undefined;
    if (builtin && (args.length < builtin.min || args.length > builtin.max)) {
      throw planError(form, `${name} expects ${arity(builtin.min, builtin.max)}, got ${args.length}`);
    }
    form.items.forEach((n) => walk(n, scope));
  };
  const bind = (form: Node, vec: Node | undefined, scope: ReadonlySet<string>, what: string): Set<string> => {
    if (vec?.kind !== 'vector' || vec.items.length % 2 !== 0) throw planError(vec ?? form, `${what} needs a binding vector of name value pairs, e.g. (${what} [x 1] ...)`);
    const inner = new Set(scope);
    for (let i = 0; i < vec.items.length; i += 2) {
      const target = vec.items[i]!;
      if (target.kind !== 'symbol') throw planError(target, `${what} binding must be a symbol`);
      walk(vec.items[i + 1]!, inner);
      inner.add(target.name);
    }
    return inner;
  };
  const special = (name: string, form: Extract<Node, { kind: 'list' }>, args: Node[], scope: ReadonlySet<string>): void => {
    const shape = FORM_ARITY[name];
    if (shape && (args.length < shape[0] || args.length > shape[1])) throw planError(form, `${name} expects ${shape[2]}`);
    if (name === 'let' || name === 'loop') {
      const inner = bind(form, args[0], scope, name);
      args.slice(1).forEach((n) => walk(n, inner));
    } else if (name === 'fn') {
      const rest = [...args];
      const inner = new Set(scope);
      if (rest[0]?.kind === 'symbol') inner.add((rest.shift() as { name: string }).name);
      const params = rest.shift();
      if (params?.kind !== 'vector') throw planError(params ?? form, 'fn needs a parameter vector, e.g. (fn [x] ...)');
      for (const p of params.items) {
        if (p.kind !== 'symbol') throw planError(p, 'fn parameter must be a symbol');
        inner.add(p.name);
      }
      rest.forEach((n) => walk(n, inner));
    } else if (name === 'call') {
      const id = args[0]!;
      const literal = id.kind === 'keyword' ? id.name : id.kind === 'string' ? id.value : undefined;
      if (literal !== undefined && !capabilityIds.has(literal)) {
        const near = [...capabilityIds].filter((c) => c.split('.').pop() === literal.split('.').pop() || editDistance(c, literal) <= 2);
        // Shown only when well-formed: an id can carry a secret (web.open?token=…) into the terminal.
        const shown = shownCapabilityId(literal);
        throw planError(id, `no capability "${shown}"${near.length && shown === literal ? ` (did you mean ${near.join(', ')}?)` : ''}; see \`webcap manifests\``, 'unknown_capability');
      }
      args.forEach((n) => walk(n, scope));
    } else {
      args.forEach((n) => walk(n, scope));
    }
  };
  for (const node of read(source, maxBytes)) walk(node, new Set());
}

/** Levenshtein distance, for "did you mean" on a mistyped capability id. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
