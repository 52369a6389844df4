// One MCP tool per manifest: the manifest is the only declaration, so name,
// description, schemas and annotations are all derived from it here.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { WebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';
import { canDestroy, changesNothing } from '../../manifests/effects.js';
import { readsPageContent } from '../untrusted/untrusted.js';
import { inLeanList, leanInputSchema, leanOutputSchema } from './lean.js';

/** MCP tool names allow [a-zA-Z0-9_-] only: `web.cookies.get` → `web_cookies_get`. */
export function toolName(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * The rule, read from the manifest's declared effects only (manifests/effects.ts):
 * - readOnlyHint: every effect only looks (browser, network, user).
 * - destructiveHint: some effect can submit, delete or spend.
 * - openWorldHint: effects include browser or network (third-party sites).
 */
export function annotationsFor(m: Manifest): NonNullable<Tool['annotations']> {
  return {
    title: m.id,
    readOnlyHint: changesNothing(m.effects),
    destructiveHint: canDestroy(m.effects),
    openWorldHint: readsPageContent(m),
  };
}

/** MCP requires object schemas at the root; a manifest without one is a packaging bug. */
function objectSchema(id: string, schema: Record<string, unknown>, which: string): Tool['inputSchema'] {
  if (schema.type !== 'object') throw new WebcapError('internal', `manifest ${id}: ${which} must have type "object" to be an MCP tool`);
  return schema as Tool['inputSchema'];
}

export function toolFor(m: Manifest): Tool {
  return {
    name: toolName(m.id),
    title: m.id,
    description: m.description,
    inputSchema: objectSchema(m.id, m.input_schema, 'input_schema'),
    outputSchema: objectSchema(m.id, m.output_schema, 'output_schema') as Tool['outputSchema'],
    annotations: annotationsFor(m),
  };
}

/** The same tool as the lean list shows it (host/mcp/lean.ts). */
function leanToolFor(m: Manifest): Tool {
  const full = toolFor(m);
  return {
    ...full,
    description: m.summary ?? m.description,
    inputSchema: leanInputSchema(full.inputSchema),
    outputSchema: leanOutputSchema(full.outputSchema!),
  };
}

/** The tools a client is offered: the lean loop set by default, every capability verbatim with "full". */
export function listedTools(manifests: Manifest[], list: 'lean' | 'full'): Tool[] {
  return list === 'full' ? manifests.map(toolFor) : manifests.filter(inLeanList).map(leanToolFor);
}

/** Tool name → manifest; two ids that map to one name would make a tool unreachable. */
export function toolIndex(manifests: Manifest[]): Map<string, Manifest> {
  const index = new Map<string, Manifest>();
  for (const m of manifests) {
    const name = toolName(m.id);
    const other = index.get(name);
    if (other) throw new WebcapError('internal', `manifests ${other.id} and ${m.id} both map to the MCP tool name ${name}`);
    index.set(name, m);
  }
  return index;
}
