// Record and replay, measured: 12 scripted sessions driven through MCP (an SDK client
// on in-memory transports to the real MCP server, host, sidecar and headless
// Chromium), each exported with web.plan_export, replayed unchanged (results
// must be identical), then replayed against a variant of the sites with every
// id and class renamed but the same roles, labels and text (selectors must
// heal, each heal recorded in the chain). Prints the figures README reports.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSites, type DemoSites } from '../../demo-sites/serve.js';
import { createHost } from '../../host/host.js';
import { createMcpServer } from '../../host/mcp/server.js';
import { readChainEntries } from '../../host/replay/chain-calls.js';
import type { Heal } from '../../host/replay/heal.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';
import { renamingProxy } from '../fixtures/renaming-proxy.js';
import { replayRoutes } from '../fixtures/replay-site.js';

type Tools = { call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>; text(name: string, args?: Record<string, unknown>): Promise<string> };
interface Scripted { name: string; inputs?: Record<string, string>; run(t: Tools, at: (path: string) => string): Promise<unknown[]> }

const refOf = (text: string, line: RegExp, kind: 'ref' | 'wa') => {
  const hit = text.split('\n').find((l) => line.test(l));
  const ref = kind === 'ref' ? /\[ref=(e\d+)\]/.exec(hit ?? '')?.[1] : /\[(wa-\d+)\]/.exec(hit ?? '')?.[1];
  if (!ref) throw new Error(`no ${kind} for ${line} in:\n${text.slice(0, 2000)}`);
  return ref;
};
const items = (r: Record<string, unknown>) => r.items as unknown[];

const SESSIONS: Scripted[] = [
  { name: 'contact form by selectors', inputs: { email: 'ada@example.org' }, async run(t, at) {
    await t.call('web_open', { url: at('/form') });
    await t.call('web_fill', { selector: '#name', text: 'Ada Lovelace' });
    await t.call('web_fill', { selector: '#mail', text: 'ada@example.org' });
    await t.call('web_select', { selector: '#topic', label: 'Support' });
    await t.call('web_fill', { selector: '#news', text: 'true' });
    await t.call('web_click', { selector: '#send' });
    return [items(await t.call('web_extract', { selector: 'main p' }))];
  } },
  { name: 'contact form by snapshot refs', async run(t, at) {
    await t.call('web_open', { url: at('/form') });
    const snap = await t.text('web_snapshot', { mode: 'interactive' });
    await t.call('web_fill', { ref: refOf(snap, /textbox "Your name"/, 'ref'), text: 'Grace Hopper' });
    await t.call('web_click', { ref: refOf(snap, /button "Send message"/, 'ref') });
    return [items(await t.call('web_extract', { selector: 'main p' }))];
  } },
  { name: 'login with a password', inputs: { password: 'correct horse' }, async run(t, at) {
    await t.call('web_open', { url: at('/login') });
    await t.call('web_fill', { selector: '#user', text: 'ada' });
    await t.call('web_fill', { selector: '#pass', text: 'correct horse' });
    await t.call('web_click', { selector: '#login' });
    return [items(await t.call('web_extract', { selector: 'main p' }))];
  } },
  { name: 'paging through three pages', async run(t, at) {
    await t.call('web_open', { url: at('/list') });
    const out = [items(await t.call('web_extract', { selector: 'main li' }))];
    await t.call('web_click', { selector: '#next' });
    out.push(items(await t.call('web_extract', { selector: 'main li' })));
    await t.call('web_click', { selector: 'a.pager' });
    out.push(items(await t.call('web_extract', { selector: 'main li' })));
    return out;
  } },
  { name: 'paging by page_content ids', async run(t, at) {
    await t.call('web_open', { url: at('/list') });
    const content = await t.text('web_page_content', {});
    await t.call('web_click', { ref: refOf(content, /Next page/, 'wa') });
    return [items(await t.call('web_extract', { selector: 'main li' }))];
  } },
  { name: 'tabs', async run(t, at) {
    await t.call('web_open', { url: at('/tabs') });
    await t.call('web_click', { selector: '#t-billing' });
    return [items(await t.call('web_extract', { selector: '[role=tabpanel] p' }))];
  } },
  { name: 'hover menu', async run(t, at) {
    await t.call('web_open', { url: at('/menu') });
    await t.call('web_hover', { selector: '#menu' });
    await t.call('web_click', { selector: '#laptops' });
    return [items(await t.call('web_extract', { selector: 'main p' }))];
  } },
  { name: 'search box and Enter on the field', async run(t, at) {
    await t.call('web_open', { url: at('/search') });
    await t.call('web_fill', { selector: '#q', text: 'item 5' });
    await t.call('web_keypress', { selector: '#q', keys: ['Enter'] });
    await t.call('web_wait', { selector: 'main li' });
    return [items(await t.call('web_extract', { selector: 'main li' }))];
  } },
  { name: 'typing key by key', inputs: { comment: 'Lovely site' }, async run(t, at) {
    await t.call('web_open', { url: at('/comment') });
    await t.call('web_type', { selector: '#c', text: 'Lovely site' });
    await t.call('web_click', { selector: 'button.btn' });
    return [items(await t.call('web_extract', { selector: 'main li' }))];
  } },
  { name: 'select by label', async run(t, at) {
    await t.call('web_open', { url: at('/prefs') });
    await t.call('web_select', { selector: '#lang', label: 'Français' });
    return [items(await t.call('web_extract', { selector: 'main p' }))];
  } },
  { name: 'demo maps: consent, search, results', async run(t) {
    await t.call('web_open', { url: 'http://maps.demo.test/maps' });
    await t.call('web_click', { selector: '#consent-accept' });
    await t.call('web_fill', { selector: '#searchboxinput', text: 'restaurants in Paris' });
    await t.call('web_keypress', { keys: ['Enter'] });
    await t.call('web_wait', { selector: 'div[role=feed] > a' });
    return [items(await t.call('web_extract', { selector: 'div[role=feed] > a', schema: { name: 'div:nth-of-type(1)', address: 'div:nth-of-type(2)' }, limit: 10 }))];
  } },
  { name: 'demo booking: search and two pages', async run(t) {
    await t.call('web_open', { url: 'http://booking.demo.test/' });
    await t.call('web_consent_handle', { policy: 'profile:demo-booking' });
    await t.call('web_fill', { selector: '#search-input', text: 'Lyon' });
    await t.call('web_click', { selector: "button[type='submit']" });
    const out = [items(await t.call('web_extract', { selector: 'article', schema: { name: 'h2', address: 'p' } }))];
    await t.call('web_click', { selector: 'a[rel=next]' });
    out.push(items(await t.call('web_extract', { selector: 'article', schema: { name: 'h2', address: 'p' } })));
    return out;
  } },
];

// Every id and class the demo sessions name, renamed by the proxy (the consent iframe's buttons keep theirs:
// web.consent.handle answers through the site profile, not a recorded selector).
const DEMO_TOKENS = ['consent-banner', 'consent-accept', 'consent-reject', 'searchboxinput', 'hfpxzc', 'qBF1Pd', 'MW4etd', 'hP61id', 'cuisine',
  'search-input', 'restaurant-card', 'restaurant-name', 'rating-value', 'address', 'page-number'];

let dir: string;
let site: FixtureServer;
let variant: FixtureServer;
let demo: DemoSites;
const proxies: Array<{ port: number; close(): Promise<void> }> = [];
const recorded: Array<{ s: Scripted; plan: string; results: unknown[]; file: string }> = [];

function config(resolve: Record<string, string>, chain: string, timeout: number) {
  const c = testConfig({ dir, browser: { domains_allowlist: ['*.test'], default_timeout_ms: timeout }, network: { resolve } });
  return { ...c, chain: { path: join(dir, chain) }, mcp: { wrap_untrusted: false } };
}

beforeAll(async () => {
  dir = tempDir('webcap-replay-');
  site = await serve(replayRoutes(''));
  variant = await serve(replayRoutes('x-'));
  demo = await startDemoSites();
  const resolve = { 'forms.test': `127.0.0.1:${site.port}`, ...demo.resolve };
  const mcp = createMcpServer({ config: config(resolve, 'record.jsonl', 5000) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(a);
  const client = new Client({ name: 'replay-test', version: '1' });
  await client.connect(b);
  const tools: Tools = {
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
      return r.structuredContent as Record<string, unknown>;
    },
    async text(name, args = {}) {
      const r = await tools.call(name, args);
      return String(r.snapshot ?? r.content ?? JSON.stringify(r));
    },
  };
  for (const [i, s] of SESSIONS.entries()) {
    const results = await s.run(tools, (path) => `http://forms.test${path}`);
    const exported = await tools.call('web_plan_export', {});
    await tools.call('web_close', {});
    const file = join(dir, `session-${i + 1}.rtfs`);
    writeFileSync(file, String(exported.plan));
    recorded.push({ s, plan: String(exported.plan), results, file });
    if (process.env.SHOW_PLANS) process.stdout.write(`--- ${s.name}\n${exported.plan}\n`);
  }
  await client.close();
  await mcp.close();
}, 300_000);

afterAll(async () => {
  await Promise.all([site?.close(), variant?.close(), demo?.close(), ...proxies.map((p) => p.close())]);
});

const returned = (value: unknown, n: number) => (n === 1 ? [value] : value);

describe('record through MCP, export, replay', () => {
  it('exports every session as a plan with fingerprints, and a password only as a required input', () => {
    expect(recorded).toHaveLength(SESSIONS.length);
    for (const r of recorded) {
      expect(r.plan).toContain('webcap:exported-plan');
      expect(r.plan).toContain(':fingerprint');
      expect(r.plan).not.toMatch(/\bref\b|wa-\d/);
    }
    const login = recorded.find((r) => r.s.name.startsWith('login'))!;
    expect(login.plan).not.toContain('correct horse');
    expect(login.plan).toMatch(/;; input password \(required\)/);
    expect(login.plan).toContain('"{{password}}"');
  });

  it('replays every session unchanged with identical results', async () => {
    const host = createHost({ config: config({ 'forms.test': `127.0.0.1:${site.port}`, ...demo.resolve }, 'replay.jsonl', 5000) });
    let identical = 0;
    try {
      for (const r of recorded) {
        const value = await host.runPlan(r.plan, { inputs: r.s.inputs });
        expect(returned(value, r.results.length), r.s.name).toEqual(r.results);
        identical++;
      }
    } finally {
      await host.close();
    }
    process.stdout.write(`replay unchanged: ${identical}/${recorded.length} sessions identical\n`);
    expect(identical).toBe(recorded.length);
  }, 300_000);

  it('replays against renamed ids and classes: heals at least 90% of the broken selectors, each heal in the chain', async () => {
    const maps = await renamingProxy(demo.resolve['maps.demo.test']!, DEMO_TOKENS);
    const booking = await renamingProxy(demo.resolve['booking.demo.test']!, DEMO_TOKENS);
    proxies.push(maps, booking);
    const resolve = { ...demo.resolve, 'forms.test': `127.0.0.1:${variant.port}`, 'maps.demo.test': `127.0.0.1:${maps.port}`, 'booking.demo.test': `127.0.0.1:${booking.port}` };
    const host = createHost({ config: config(resolve, 'variant.jsonl', 5000) });
    const heals: Heal[] = [];
    let unhealed = 0;
    let completed = 0;
    let identical = 0;
    try {
      for (const r of recorded) {
        try {
          const value = await host.runPlan(r.plan, { inputs: r.s.inputs, heal: { onHeal: (h) => heals.push(h) } });
          completed++;
          if (JSON.stringify(returned(value, r.results.length)) === JSON.stringify(r.results)) identical++;
        } catch (err) {
          if ((err as { code?: string }).code === 'selector_not_found') unhealed++;
          process.stdout.write(`variant: ${r.s.name}: ${(err as Error).message}\n`);
        }
      }
    } finally {
      await host.close();
    }
    const fresh = new Set(heals.map((h) => h.old_selector)).size;
    const rate = fresh / (fresh + unhealed);
    const healedEntries = readChainEntries(join(dir, 'variant.jsonl')).filter((e) => e.kind === 'healed');
    process.stdout.write(`variant replay: ${completed}/${recorded.length} plans completed, ${identical}/${recorded.length} identical results; `
      + `${fresh} broken selectors healed, ${unhealed} not (heal rate ${(rate * 100).toFixed(0)}%); ${heals.length} healed steps, ${healedEntries.length} healed chain entries; `
      + `features: ${JSON.stringify(countBy(heals.filter((h, i) => heals.findIndex((x) => x.old_selector === h.old_selector) === i).map((h) => h.feature)))}\n`);
    expect(rate).toBeGreaterThanOrEqual(0.9);
    expect(healedEntries).toHaveLength(heals.length);
    expect(fresh).toBeGreaterThanOrEqual(10);
  }, 600_000);
});

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
