// A plan is read and checked before its first call, so a typo fails at once
// (plan:LINE:COL) instead of after a browser started and half the plan ran:
// unknown symbols, wrong arity for special forms and builtins, call of a
// capability id no manifest declares, and a literal parameter name the
// capability's manifest does not declare. Only what is certain without running
// is checked (a computed capability id or parameter map is left to run time).
import { loadManifests, type Manifest } from '../../manifests/load.js';
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

export function checkPlan(source: string, manifests: readonly Manifest[] = loadManifests(), maxBytes?: number): void {
  const byId = new Map(manifests.map((m) => [m.id, m]));
  const capabilityIds: ReadonlySet<string> = new Set(byId.keys());
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
      const manifest = literal === undefined ? undefined : byId.get(literal);
      if (manifest && args[1]?.kind === 'map') checkParams(manifest, args[1].entries.map(([k]) => k));
      args.forEach((n) => walk(n, scope));
    } else {
      args.forEach((n) => walk(n, scope));
    }
  };
  for (const node of read(source, maxBytes)) walk(node, new Set());
}

/** Each literal key of a call's parameter map must be a parameter the manifest declares (when it closes the list). */
function checkParams(manifest: Manifest, keys: Node[]): void {
  const schema = manifest.input_schema as { properties?: Record<string, unknown>; additionalProperties?: unknown } | undefined;
  if (!schema?.properties || schema.additionalProperties !== false) return;
  const known = Object.keys(schema.properties);
  for (const key of keys) {
    const name = key.kind === 'keyword' ? key.name : key.kind === 'string' ? key.value : undefined;
    if (name === undefined || Object.hasOwn(schema.properties, name)) continue;
    const near = known.filter((k) => editDistance(k, name) <= 2).sort((a, b) => editDistance(a, name) - editDistance(b, name));
    // Shown only when it is a plain name: a mistyped key could be a pasted value.
    const shown = /^[\w.-]{1,64}$/.test(name) ? `"${name}"` : 'of that name';
    throw planError(key, `${manifest.id} has no parameter ${shown}${near.length ? ` (did you mean "${near[0]}"?)` : ''}; it takes ${known.join(', ')}`);
  }
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
