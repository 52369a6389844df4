// The composite's single `browser` tool: {action, ...params} dispatched to the
// capability the action names. Still one declaration: actions, parameter
// descriptions and the per-capability validation all come from the manifests
// (the host validates params against the chosen manifest, as for any call).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { WebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';
import { toolName } from './tools.js';

export const COMPOSITE_TOOL = 'browser';

/** The composite's verbs that differ from a capability's own name. */
const ALIASES: Record<string, { id: string; params?: Record<string, unknown> }> = {
  launch: { id: 'web.open' },
  // web.tabs takes its own `action`; the composite's `action` is taken, so the composite's tab verbs carry it.
  tab_new: { id: 'web.tabs', params: { action: 'new' } },
  tab_close: { id: 'web.tabs', params: { action: 'close' } },
  tab_switch: { id: 'web.tabs', params: { action: 'switch' } },
};

/** `web.cookies.get` → `cookies_get`; other families keep their prefix (`ccos_user_ask`). */
export function actionName(id: string): string {
  return toolName(id.startsWith('web.') ? id.slice(4) : id);
}

interface Composite { tool: Tool; resolve(args: Record<string, unknown>): { manifest: Manifest; params: Record<string, unknown> } }

export function compositeTool(manifests: Manifest[]): Composite {
  const byAction = new Map(manifests.map((m) => [actionName(m.id), { manifest: m, params: {} as Record<string, unknown> }]));
  for (const [alias, target] of Object.entries(ALIASES)) {
    const m = manifests.find((x) => x.id === target.id);
    if (m && !byAction.has(alias)) byAction.set(alias, { manifest: m, params: target.params ?? {} });
  }
  const actions = [...byAction.keys()].sort();
  const summary = manifests.map((m) => `- ${actionName(m.id)}: ${m.description.split('. ')[0]}.`).join('\n');
  const tool: Tool = {
    name: COMPOSITE_TOOL,
    title: 'browser',
    description: `Drive a governed browser. Pick an action; pass that action's parameters next to it, e.g. {"action":"open","url":"https://example.org/"}. Aliases: ${Object.entries(ALIASES).map(([a, t]) => `${a} = ${actionName(t.id)}`).join(', ')}.\n${summary}`,
    inputSchema: { type: 'object', properties: { action: { type: 'string', enum: actions, description: 'What to do.' }, ...unionOfProperties(manifests) }, required: ['action'] },
    annotations: { title: 'browser', readOnlyHint: false, destructiveHint: manifests.some((m) => m.approval !== 'never'), openWorldHint: true },
  };
  return {
    tool,
    resolve(args) {
      const { action, ...rest } = args;
      const target = typeof action === 'string' ? byAction.get(action) : undefined;
      if (!target) throw new WebcapError('invalid_params', `browser: unknown action ${JSON.stringify(action)}; one of ${actions.join(', ')}`, { field: 'action' });
      return { manifest: target.manifest, params: { ...rest, ...target.params } };
    },
  };
}

/**
 * Every parameter any action takes. A name declared the same way everywhere
 * keeps its schema; one declared differently keeps only a description (the
 * chosen action's manifest checks it).
 */
function unionOfProperties(manifests: Manifest[]): Record<string, Record<string, unknown>> {
  const seen = new Map<string, { schema: Record<string, unknown>; same: boolean; users: string[] }>();
  for (const m of manifests) {
    const props = (m.input_schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, schema] of Object.entries(props)) {
      if (name === 'action') continue;
      const entry = seen.get(name);
      if (!entry) seen.set(name, { schema, same: true, users: [actionName(m.id)] });
      else {
        entry.same &&= JSON.stringify(entry.schema) === JSON.stringify(schema);
        entry.users.push(actionName(m.id));
      }
    }
  }
  return Object.fromEntries([...seen].map(([name, e]) => {
    const used = `Used by: ${e.users.join(', ')}.`;
    const text = typeof e.schema.description === 'string' ? `${e.schema.description} ${used}` : used;
    return [name, e.same ? { ...e.schema, description: text } : { description: text }];
  }));
}
