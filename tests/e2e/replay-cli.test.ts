// Record and replay as a user runs it: fingerprints in the chain
// for every element action, `webcap chain export`, `webcap run --update-plan`
// healing against a page whose ids changed (with a .bak), hand-written plans
// healing only when asked, an ambiguous heal failing with its candidates.
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChainEntries } from '../../host/replay/chain-calls.js';
import { html, send, serve, type FixtureServer, type Handler } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';
import { replayRoutes } from '../fixtures/replay-site.js';

let site: FixtureServer;
let dir: string;
let configFile: string;
const state = { variant: '' };

/** The replay pages, with ids/classes renamed when state.variant says so; /twins has two buttons of the same name there. */
function switchable(): Record<string, Handler> {
  const plain = replayRoutes('');
  const renamed = replayRoutes('x-');
  const routes: Record<string, Handler> = Object.fromEntries(Object.keys(plain).map((k) => [k, (req: IncomingMessage, res: ServerResponse) => (state.variant ? renamed : plain)[k]!(req, res)]));
  routes['/twins'] = (_req, res) => send(res, html(state.variant
    ? '<h1>Twins</h1><button class="a">Save</button><button class="b">Save</button>'
    : '<h1>Twins</h1><button id="save">Save</button>'));
  routes['/upload'] = (_req, res) => send(res, html('<h1>Upload</h1><label for="cv">Your CV</label><input type="file" id="cv">'));
  return routes;
}

const chain = () => readChainEntries(join(dir, 'chain.jsonl'));
const run = (...args: string[]) => webcap([...args, '--config', configFile, '--yes'], dir);

beforeAll(async () => {
  site = await serve(switchable());
  dir = tempDir('webcap-replay-cli-');
  configFile = join(dir, 'agent_config.toml');
  writeFileSync(configFile, `[capabilities.browser]
domains_allowlist = ["forms.test"]
respect_robots = false
default_timeout_ms = 3000

[network]
resolve = { "forms.test" = "127.0.0.1:${site.port}" }
allow_private = ["127.0.0.1"]

[chain]
path = "chain.jsonl"

[workspace]
path = "ws"

[report]
screenshots = "each_step"
`);
});

afterAll(async () => { await site?.close(); });

describe('fingerprints at action time', () => {
  it('every element action records role, name, label, CSS path and landmark; a password never', async () => {
    writeFileSync(join(dir, 'actions.rtfs'), `(do
      (call :web.open {:url "http://forms.test/login" :timeout 30000})
      (call :web.fill {:selector "#user" :text "ada"})
      (call :web.fill {:selector "#pass" :text "s3cret-horse"})
      (call :web.keypress {:selector "#user" :keys ["Tab"]})
      (call :web.open {:url "http://forms.test/form" :timeout 30000})
      (call :web.select {:selector "#topic" :label "Support"})
      (call :web.type {:selector "#name" :text "Ada"})
      (call :web.open {:url "http://forms.test/menu" :timeout 30000})
      (call :web.hover {:selector "#menu"})
      (call :web.click {:selector "#laptops"}))`);
    const r = await run('run', 'actions.rtfs');
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    const acted = chain().filter((e) => e.kind === 'call' && ['web.fill', 'web.keypress', 'web.select', 'web.type', 'web.hover', 'web.click'].includes(e.capability!));
    expect(acted).toHaveLength(7);
    for (const e of acted) expect((e.result as { fingerprint?: unknown }).fingerprint, e.capability!).toBeDefined();
    const fp = (i: number) => (acted[i]!.result as { fingerprint: Record<string, unknown> }).fingerprint;
    expect(fp(0)).toMatchObject({ role: 'textbox', name: 'Username', tag: 'input', id: 'user', label: 'Username', css: '#user', landmark: 'main', heading: 'Sign in' });
    expect(fp(1)).toMatchObject({ role: 'textbox', label: 'Password', secret: true });
    expect(fp(2)).toMatchObject({ id: 'user' });
    expect(fp(3)).toMatchObject({ role: 'combobox', label: 'Topic' });
    expect(fp(5)).toMatchObject({ tag: 'div', id: 'menu', landmark: 'nav "Main"' });
    expect(fp(6)).toMatchObject({ role: 'link', name: 'Laptops', text: 'Laptops' });
    expect(readFileSync(join(dir, 'chain.jsonl'), 'utf8')).not.toContain('s3cret-horse');
  }, 120_000);
});

describe('export, then a healing replay that rewrites the plan', () => {
  it('webcap chain export --last writes a plan; run --update-plan heals it against renamed ids and keeps a .bak', async () => {
    state.variant = '';
    writeFileSync(join(dir, 'contact.rtfs'), `(do
      (call :web.open {:url "http://forms.test/form" :timeout 30000})
      (call :web.fill {:selector "#name" :text "Ada"})
      (call :web.click {:selector "#send"})
      (get (call :web.extract {:selector "main p"}) :items))`);
    expect((await run('run', 'contact.rtfs')).code).toBe(0);
    const exported = await run('chain', 'export', '--last', '-o', 'exported.rtfs');
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/inputs: your_name/);
    const plan = readFileSync(join(dir, 'exported.rtfs'), 'utf8');
    expect(plan).toContain(';; input your_name = "Ada"');

    state.variant = 'x-';
    const healed = await run('run', 'exported.rtfs', '--input', 'your_name=Grace', '--update-plan', '--json');
    expect(healed.stderr).toContain('healed web.fill');
    expect(healed.code).toBe(0);
    expect(JSON.parse(healed.stdout)).toEqual([{ text: 'Name: Grace' }, { text: 'Topic: b' }, { text: 'News: no' }]);
    expect(readFileSync(join(dir, 'exported.rtfs.bak'), 'utf8')).toBe(plan);
    const rewritten = readFileSync(join(dir, 'exported.rtfs'), 'utf8');
    expect(rewritten).toContain('(call :web.fill {:selector "role=textbox[name=\\"Your name\\"s]"');
    expect(rewritten).toContain('(call :web.click {:selector "role=button[name=\\"Send message\\"s]"');
    const heals = chain().filter((e) => e.kind === 'healed');
    expect(heals.length).toBeGreaterThanOrEqual(2);
    expect(heals[0]!.params).toMatchObject({ old_selector: '#name', new_selector: 'role=textbox[name="Your name"s]' });
    expect(heals[0]!.result).toMatchObject({ matched: ['role+name'] });

    // The rewritten plan runs on the variant without healing.
    const again = await run('run', 'exported.rtfs', '--input', 'your_name=Grace');
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('healed');
  }, 180_000);

  it('--update-plan never writes through a symlink planted at PLAN.bak: refused, the link target and the plan untouched', async () => {
    const original = readFileSync(join(dir, 'exported.rtfs.bak'), 'utf8');
    writeFileSync(join(dir, 'planted.rtfs'), original);
    const elsewhere = tempDir('webcap-victim-');
    writeFileSync(join(elsewhere, 'victim.txt'), 'precious');
    symlinkSync(join(elsewhere, 'victim.txt'), join(dir, 'planted.rtfs.bak'));
    state.variant = 'x-';
    const r = await run('run', 'planted.rtfs', '--input', 'your_name=Grace', '--update-plan');
    expect(r.stderr).toContain('healed web.fill');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/will not write .*planted\.rtfs\.bak: it is a symbolic link/);
    expect(readFileSync(join(elsewhere, 'victim.txt'), 'utf8')).toBe('precious');
    expect(lstatSync(join(dir, 'planted.rtfs.bak')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'planted.rtfs'), 'utf8')).toBe(original);
  }, 180_000);

  it('a hand-written plan does not heal unless asked; --heal uses the fingerprint the chain recorded', async () => {
    state.variant = '';
    writeFileSync(join(dir, 'tabs.rtfs'), `(do (call :web.open {:url "http://forms.test/tabs" :timeout 30000})
      (call :web.click {:selector "#t-billing"})
      (get (call :web.extract {:selector "[role=tabpanel] p"}) :items))`);
    expect((await run('run', 'tabs.rtfs')).code).toBe(0);
    state.variant = 'x-';
    const plain = await run('run', 'tabs.rtfs');
    expect(plain.code, plain.stderr).toBe(1);
    expect(plain.stderr).toMatch(/error: selector_not_found: .*#t-billing/);
    const asked = await run('run', 'tabs.rtfs', '--heal', '--json');
    expect(asked.code, asked.stderr).toBe(0);
    expect(JSON.parse(asked.stdout)).toEqual([{ text: 'Billing: 3 invoices' }]);
    expect(existsSync(join(dir, 'tabs.rtfs.bak'))).toBe(false);
  }, 120_000);

  it('an ambiguous match fails with selector_not_found listing the candidates', async () => {
    state.variant = '';
    writeFileSync(join(dir, 'twins.rtfs'), '(do (call :web.open {:url "http://forms.test/twins" :timeout 30000}) (call :web.click {:selector "#save"} {:heal true}))');
    const first = await run('run', 'twins.rtfs');
    expect(first.code, first.stderr).toBe(0);
    state.variant = 'x-';
    const r = await run('run', 'twins.rtfs');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/selector_not_found: .*#save found nothing and no recorded feature matches exactly one element; candidates: role\+name role=button\[name="Save"s\] \(2\)/);
  }, 120_000);
});

describe('bad input', () => {
  it('export and run name what is wrong, with the closed error codes', async () => {
    const none = await run('chain', 'export');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: invalid_params: say which run: exactly one of --plan-id ID, --session S, --last/m);
    writeFileSync(join(dir, 'mini.jsonl'), `${JSON.stringify({ seq: 1, kind: 'call', capability: 'web.open', session: null, plan_id: null, params: { url: 'http://forms.test/' }, result: { session: 's1' }, error: null })}\n`);
    const unknown = await run('chain', 'export', 'mini.jsonl', '--session', 'nope');
    expect(unknown.stderr).toMatch(/^error: session_not_found: no calls of session nope/m);
    const noChain = await run('report', 'missing.jsonl');
    expect(noChain.stderr).toMatch(/^error: invalid_params: no chain file at missing\.jsonl/m);
    writeFileSync(join(dir, 'needs.rtfs'), ';; input password (required)\n(call :web.fill {:selector "#p" :text "{{password}}"})');
    const missing = await run('run', 'needs.rtfs');
    // Named so the redactor leaves it readable (a "password=…" pair would be hidden as a credential).
    expect(missing.stderr).toMatch(/^error: invalid_params: the plan needs the input "password": give each with --input NAME=VALUE/m);
    const malformed = await run('run', 'needs.rtfs', '--input', 'password');
    expect(malformed.stderr).toMatch(/^error: invalid_params: --input expects name=value/m);
  }, 60_000);
});
