// Manifest → MCP tool: names legal for MCP, schemas copied verbatim, the
// annotation rule, and the composite tool's action dispatch.
import { IDENTIFIER_SOURCE } from '../../../manifests/identifier.js';
import { describe, expect, it } from 'vitest';
import { loadManifests, type Manifest } from '../../../manifests/load.js';
import { EFFECTS, isKnownEffect, type Effect } from '../../../manifests/effects.js';
import { annotationsFor, listedTools, toolFor, toolIndex, toolName } from '../../../host/mcp/tools.js';
import { actionName, compositeTool } from '../../../host/mcp/composite.js';

const manifests = loadManifests();
const fake = (over: Partial<Manifest>): Manifest => ({
  id: 'web.x', description: 'X.', version: '0', provider: 'sidecar', approval: 'never', effects: ['browser'],
  input_schema: { type: 'object', properties: {} }, output_schema: { type: 'object', properties: {} }, ...over,
});

describe('tool names', () => {
  it('maps every shipped manifest to a distinct name MCP accepts', () => {
    const names = manifests.map((m) => toolName(m.id));
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(names.length);
    expect(toolName('web.cookies.get')).toBe('web_cookies_get');
    expect(toolIndex(manifests).get('web_open')?.id).toBe('web.open');
  });

  it('refuses two ids that would share a name', () => {
    expect(() => toolIndex([fake({ id: 'web.a.b' }), fake({ id: 'web.a_b' })])).toThrow(/both map to the MCP tool name web_a_b/);
  });

  it('copies description and schemas from the manifest', () => {
    const m = manifests.find((x) => x.id === 'web.fill')!;
    const t = toolFor(m);
    expect(t).toMatchObject({ name: 'web_fill', title: 'web.fill', description: m.description });
    expect(t.inputSchema).toBe(m.input_schema);
    expect(t.outputSchema).toBe(m.output_schema);
  });
});

describe('annotations', () => {
  it.each([
    ['looks at the page', ['browser'], { readOnlyHint: true, destructiveHint: false, openWorldHint: true }],
    ['fetches from sites', ['network'], { readOnlyHint: true, destructiveHint: false, openWorldHint: true }],
    ['changes the page', ['browser', 'page'], { readOnlyHint: false, destructiveHint: false, openWorldHint: true }],
    ['writes a file', ['browser', 'filesystem'], { readOnlyHint: false, destructiveHint: false, openWorldHint: true }],
    ['may submit', ['browser', 'page', 'submit'], { readOnlyHint: false, destructiveHint: true, openWorldHint: true }],
    ['discards state', ['browser', 'delete'], { readOnlyHint: false, destructiveHint: true, openWorldHint: true }],
    ['asks the user', ['user'], { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
    ['an effect added later fails closed', ['browser', 'download'], { readOnlyHint: false, destructiveHint: true, openWorldHint: true }],
  ] as const)('%s', (_what, effects, expected) => {
    expect(annotationsFor(fake({ effects: [...effects] }))).toEqual({ title: 'web.x', ...expected });
  });

  // What each shipped tool can do, said independently of the manifests: the
  // manifests' effects must agree, so the hints a client relies on are honest.
  const CHANGES = ['web.click', 'web.close', 'web.consent.handle', 'web.cookies.set', 'web.download_page', 'web.evaluate', 'web.fill', 'web.fill_form', 'web.handoff',
    'web.hover', 'web.keypress', 'web.navigate', 'web.open', 'web.pdf', 'web.screenshot', 'web.scroll', 'web.select', 'web.tabs', 'web.type', 'web.upload'];
  const SUBMITS_DELETES_OR_SPENDS = ['web.click', 'web.close', 'web.cookies.set', 'web.evaluate', 'web.fill_form', 'web.handoff', 'web.keypress', 'web.tabs', 'web.type', 'web.upload'];

  it('every manifest declares only known effects', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(34);
    // The lists above name shipped capabilities, not stale ones.
    for (const id of CHANGES) expect(manifests.map((m) => m.id)).toContain(id);
    for (const m of manifests) for (const e of m.effects) expect(isKnownEffect(e), `${m.id}: ${e}`).toBe(true);
  });

  it.each(manifests.map((m) => [m.id, m] as const))('%s: hints follow its declared effects', (id, m) => {
    const hints = annotationsFor(m);
    expect(hints.readOnlyHint, 'readOnlyHint').toBe(!CHANGES.includes(id));
    expect(hints.destructiveHint, 'destructiveHint').toBe(SUBMITS_DELETES_OR_SPENDS.includes(id));
    expect(hints.readOnlyHint, 'readOnlyHint').toBe(m.effects.every((e) => EFFECTS[e as Effect] === 'looks'));
    expect(hints.destructiveHint, 'destructiveHint').toBe(m.effects.some((e) => EFFECTS[e as Effect] === 'destructive'));
  });
});

describe('composite browser tool', () => {
  const composite = compositeTool(manifests);

  it('offers one action per manifest plus the composite aliases', () => {
    const actions = (composite.tool.inputSchema.properties as Record<string, { enum: string[] }>).action.enum;
    for (const m of manifests) expect(actions).toContain(actionName(m.id));
    expect(actions).toEqual(expect.arrayContaining(['launch', 'tab_new', 'tab_close', 'tab_switch', 'tabs', 'console', 'snapshot', 'status']));
    expect(actionName('web.cookies.get')).toBe('cookies_get');
    expect(actionName('ccos.user.ask')).toBe('ccos_user_ask');
  });

  it('dispatches {action, ...params} to the capability, params untouched', () => {
    expect(composite.resolve({ action: 'click', ref: 'e3', timeout: 100 })).toMatchObject({ manifest: { id: 'web.click' }, params: { ref: 'e3', timeout: 100 } });
    expect(composite.resolve({ action: 'launch', url: 'http://a.test/' })).toMatchObject({ manifest: { id: 'web.open' }, params: { url: 'http://a.test/' } });
    // web.tabs has an `action` of its own: the composite's tab_* verbs supply it.
    expect(composite.resolve({ action: 'tab_switch', tab: 't1' })).toEqual({ manifest: expect.objectContaining({ id: 'web.tabs' }), params: { tab: 't1', action: 'switch' } });
    expect(composite.resolve({ action: 'tabs' })).toEqual({ manifest: expect.objectContaining({ id: 'web.tabs' }), params: {} });
  });

  it('names the valid actions when the action is unknown or missing', () => {
    expect(() => composite.resolve({ action: 'teleport' })).toThrow(/unknown action "teleport"; one of .*click/);
    expect(() => composite.resolve({})).toThrow(/unknown action undefined/);
  });

  it('keeps a shared parameter schema only where every action declares it alike', () => {
    const props = composite.tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.session).toMatchObject({ type: 'string', pattern: IDENTIFIER_SOURCE });
    expect(props.url.description).toMatch(/Used by: .*\bopen\b/);
  });
});

describe('the lean tool list', () => {
  const lean = listedTools(manifests, 'lean');

  // @playwright/mcp 0.0.83's default list measured 20,286 characters (bench/tool-list-size.ts): stay under it.
  it('stays under 20,000 characters', () => expect(JSON.stringify(lean).length).toBeLessThan(20_000));

  it('offers the agent-loop tools, each saying when to use it, with schemas the results still fit', () => {
    expect(lean.map((t) => t.name)).toEqual(expect.arrayContaining(['web_open', 'web_navigate', 'web_snapshot', 'web_click', 'web_fill', 'web_type', 'web_select', 'web_keypress', 'web_extract', 'web_screenshot', 'web_close']));
    for (const t of lean) {
      expect(t.description, t.name).toMatch(/\bUse\b/);
      expect(JSON.stringify(t.inputSchema)).not.toMatch(/"pattern"|"maximum"/);
      const full = manifests.find((m) => toolName(m.id) === t.name)!;
      expect(Object.keys(t.inputSchema.properties ?? {})).toEqual(Object.keys(full.input_schema.properties as object));
      expect(t.outputSchema?.required).toEqual(full.output_schema.required);
      expect(t.annotations).toEqual(annotationsFor(full));
    }
  });

  it('"full" lists every capability verbatim', () => {
    expect(listedTools(manifests, 'full')).toHaveLength(manifests.length);
    expect(listedTools(manifests, 'full').find((t) => t.name === 'web_click')?.description).toBe(manifests.find((m) => m.id === 'web.click')!.description);
  });
});
