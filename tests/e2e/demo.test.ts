// `webcap demo` (npm start) and `webcap discover` as a user runs them: real
// processes, the bundled demo sites, the chain they leave behind.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placesFor } from '../../demo-sites/data.js';
import { startDemoSites, type DemoSites } from '../../demo-sites/serve.js';
import { tempDir } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';

describe('webcap demo', () => {
  it('runs the three plans, prints their results, the step log and an intact chain', async () => {
    const cwd = tempDir();
    const r = await webcap(['demo'], cwd);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout;
    // Plan 1 (maps, infinite scroll), plan 2 (5 pages), plan 3 (discovered): each result table is there.
    expect(out).toContain(placesFor('restaurants in Paris', 1)[0].name);
    expect(out).toContain('(20 results in');
    expect(out).toContain('(40 results in');
    expect(out).toMatch(/→ demo-maps\s+score/);
    expect(out).toContain(placesFor('bakeries in Bordeaux', 1)[0].name);
    expect(out).toMatch(/\d+\. ✓ web\.consent\.handle profile:demo-booking/);
    expect(out).not.toContain('✗');
    const chain = join(cwd, '.webcap/demo/chain.jsonl');
    expect(out).toContain(`causal chain: ${chain}`);
    expect(out).toMatch(/chain verify: intact \(\d+ entries\)/);
    expect(existsSync(chain)).toBe(true);
    // a run report of the three plans, one self-contained HTML file.
    const report = /run report: (.+\.html)$/m.exec(out)?.[1];
    expect(report && existsSync(report)).toBe(true);
    const html = readFileSync(report!, 'utf8');
    expect(html).toContain('<tr class="step" data-step="1">');
    expect(html).toMatch(/<code>web\.open<\/code><\/td><td><code>http:\/\/maps\.demo\.test\/maps<\/code>/);
    console.info(`webcap demo took ${r.ms} ms`);
  });
});

describe('webcap discover', () => {
  let sites: DemoSites;
  let dir: string;
  beforeAll(async () => {
    sites = await startDemoSites();
    dir = tempDir();
    const resolveTable = Object.entries(sites.resolve).map(([k, v]) => `"${k}" = "${v}"`).join(', ');
    writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["*.demo.test"]

[network]
resolve = { ${resolveTable} }
allow_private = ["127.0.0.1"]
`);
  });
  afterAll(async () => { await sites?.close(); });

  it('prints the plan for a need on stdout and the ranking on stderr', async () => {
    const r = await webcap(['discover', 'restaurant.search', '--input', 'query=Nice', '--config', 'agent_config.toml'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(call :web.fill {:selector "@search_box" :text "Nice"})');
    expect(r.stderr).toMatch(/→ demo-booking \(task search/);
    expect(r.stderr).toMatch(/google-maps .*google\.com is not allowlisted/);
  });

  it('runs it with --run: consent refused without --yes, results with it', async () => {
    const refused = await webcap(['discover', 'restaurant.search', '--input', 'query=Nice', '--run', '--config', 'agent_config.toml'], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/error: consent_denied: /);
    const r = await webcap(['discover', 'restaurant.search', '--input', 'query=Nice', '--run', '--yes', '--json', '--config', 'agent_config.toml'], dir);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { result: { items: Array<{ name: string }> }; candidates: unknown[] };
    expect(out.result.items.map((p) => p.name)).toEqual(placesFor('Nice', 8).map((p) => p.name));
    expect(r.stderr).toMatch(/\d+\. ✓ web\.extract @result_item/);
    expect(readFileSync(join(dir, '.webcap/chain.jsonl'), 'utf8')).toContain('"plan_id"');
  });

  it('refuses an --input that is not key=value', async () => {
    const r = await webcap(['discover', 'restaurant.search', '--input', 'Paris', '--config', 'agent_config.toml'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: invalid_params: --input expects key=value, got "Paris"\n');
  });

  it('names a need no site answers', async () => {
    const r = await webcap(['discover', 'payment.refund', '--config', 'agent_config.toml'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: unknown_capability: no usable web fallback for need "payment.refund"/);
  });
});
