// The lean tool list: what an agent pays for on every turn. The default MCP
// list offers the tools an agent loop needs (those whose manifest carries a
// `summary`), each with its summary, its input schema without what the host
// validates anyway (patterns, bounds) and without the descriptions of the
// parameters every element tool shares (said once in the server's
// instructions), and an output schema of top-level fields only (looser than
// the manifest's, so every result still conforms). `[mcp] tool_list = "full"`
// lists every capability with its schemas verbatim.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Manifest } from '../../manifests/load.js';

/** Parameters explained once in the instructions rather than on every tool. */
const SHARED_PARAMS = ['session', 'timeout', 'ref', 'selector', 'role', 'name', 'wait_until'];
const CHECKED_BY_HOST = new Set(['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'additionalProperties', 'minItems', 'maxItems', 'default', 'examples', 'title']);

export const SHARED_PARAMS_TEXT = 'Element tools name their element one way: `ref` (e12 from web.snapshot; f1e3 is inside an iframe; a ref from an older page fails with stale_ref, so take a new snapshot), `selector` (CSS, xpath=…, text=…, role=button[name="…"]), or `role` + `name`. Every tool takes optional `session` (default: the session you opened last) and `timeout` in ms; `wait_until` is load|domcontentloaded|networkidle|commit.';

export function inLeanList(m: Manifest): boolean {
  return typeof m.summary === 'string';
}

export function leanInputSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return prune(schema, true) as Tool['inputSchema'];
}

function prune(node: unknown, root = false): unknown {
  if (Array.isArray(node)) return node.map((n) => prune(n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (CHECKED_BY_HOST.has(key)) continue;
    if (key === 'description' && typeof value === 'string') out[key] = firstSentence(value);
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, sub]) => [name, root && SHARED_PARAMS.includes(name) ? bare(sub) : prune(sub)]));
    } else out[key] = prune(value);
  }
  return out;
}

/** A shared parameter keeps its type and enum; its meaning is in the instructions. */
function bare(schema: unknown): unknown {
  const { description: _d, ...rest } = prune(schema) as Record<string, unknown>;
  return rest;
}

function firstSentence(text: string): string {
  const cut = /\.(\s|$)/.exec(text);
  return cut ? text.slice(0, cut.index + 1) : text;
}

/** Top-level fields and their types: a program can rely on them; nested shapes are in `webcap manifests`. */
export function leanOutputSchema(schema: Record<string, unknown>): Tool['outputSchema'] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const fields = Object.fromEntries(Object.entries(props).map(([name, p]) => [name, 'const' in p ? { const: p.const } : 'type' in p ? { type: p.type } : {}]));
  return { type: 'object', properties: fields, ...(Array.isArray(schema.required) ? { required: schema.required } : {}) } as Tool['outputSchema'];
}
