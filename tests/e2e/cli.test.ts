// The CLI as a user runs it: real processes, a TOML config, loopback fixtures.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { shopRoutes } from '../fixtures/shop-site.js';
import { webcap } from '../helpers/cli.js';

let site: FixtureServer;
let dir: string;
let configFile: string;


beforeAll(async () => {
  site = await serve(shopRoutes);
  dir = tempDir();
  configFile = join(dir, 'agent_config.toml');
  writeFileSync(configFile, `[capabilities.browser]
domains_allowlist = ["shop.test"]
respect_robots = false

[network]
resolve = { "shop.test" = "127.0.0.1", "other.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]

[chain]
path = "chain.jsonl"

[workspace]
path = "ws"
`);
});
afterAll(async () => { await site?.close(); });

describe('webcap CLI', () => {
  it('lists the manifests', async () => {
    const r = await webcap(['manifests', '--json']);
    expect(r.code).toBe(0);
    const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['web.open', 'web.extract', 'web.consent.handle', 'ccos.user.ask']));
  });

  it('runs one call and prints JSON', async () => {
    const r = await webcap(['call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }), '--config', configFile, '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'Shop', status: 200 });
    expect(r.code).toBe(0);
  });

  it('fails with exit 1, "error: code: message" and a JSON error', async () => {
    const r = await webcap(['call', 'web.open', JSON.stringify({ url: site.url('other.test', '/') }), '--config', configFile, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: not_allowlisted: host "other.test"/);
    expect(JSON.parse(r.stdout).error.code).toBe('not_allowlisted');
    const bad = await webcap(['call', 'web.open', '{nope', '--config', configFile]);
    expect([bad.code, bad.stderr.startsWith('error: invalid_params:')]).toEqual([1, true]);
  });

  it('runs a plan: step log on stderr, value on stdout; consent denied without --yes, approved with it', async () => {
    const plan = join(dir, 'plan.rtfs');
    writeFileSync(plan, `(do
  (call :ccos.user.ask {:question "Open the shop?"})
  (call :web.open {:url "${site.url('shop.test', '/list')}"})
  (let [r (call :web.extract {:selector ".item" :schema {:name ".name"} :limit 3})]
    (return (get r :items))))`);
    const denied = await webcap(['run', plan, '--config', configFile]);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('✗ ccos.user.ask');
    expect(denied.stderr).toContain('error: consent_denied');
    const ok = await webcap(['run', plan, '--config', configFile, '--yes', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([{ name: 'Item 1' }, { name: 'Item 2' }, { name: 'Item 3' }]);
    expect(ok.stderr).toMatch(/1\. ✓ ccos\.user\.ask/);
    expect(ok.stderr).toMatch(/3\. ✓ web\.extract \.item/);
  });

  it('verifies the chain, and names the first bad entry after an edit, a deletion and a swap', async () => {
    const chain = join(dir, 'chain.jsonl');
    const intact = await webcap(['chain', 'verify', chain]);
    expect([intact.code, intact.stdout]).toEqual([0, expect.stringContaining('chain intact')]);
    const original = readFileSync(chain, 'utf8');
    const lines = original.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const tamper = async (text: string) => { writeFileSync(chain, text); return webcap(['chain', 'verify', chain]); };

    const edited = await tamper(original.replace('"web.open"', '"web.opem"'));
    expect([edited.code, edited.stdout]).toEqual([1, expect.stringMatching(/TAMPERED at line \d+/)]);
    const deleted = await tamper([...lines.slice(0, 1), ...lines.slice(2)].join('\n') + '\n');
    expect([deleted.code, deleted.stdout]).toEqual([1, expect.stringContaining('line 2')]);
    const swapped = await tamper([lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n') + '\n');
    expect([swapped.code, swapped.stdout]).toEqual([1, expect.stringContaining('line 2')]);
    writeFileSync(chain, original);

    const shown = await webcap(['chain', 'show', chain]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('web.open');
    expect(shown.stdout).toContain('consent_denied');
  });
});
