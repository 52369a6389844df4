// Secrets in no encoding, as a user of `webcap run` checks it: after plans
// that type passwords (whole and key by key), submit a GET login form, open
// URLs with credential-named parameters and userinfo, fail a fill before its
// field appears and call an id that holds a token, none of the secrets is in
// the causal chain, the log file or the command's stderr (step log and error
// line), raw or in any encoding.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap, type CliRun } from '../helpers/cli.js';
import { leaks, SECRETS, secretRoutes } from '../fixtures/secret-pages.js';

let site: FixtureServer;
let dir: string;
let configFile: string;
const runs: CliRun[] = [];

async function runPlan(name: string, source: string): Promise<CliRun> {
  const file = join(dir, `${name}.rtfs`);
  writeFileSync(file, source);
  const r = await webcap(['run', file, '--config', configFile, '--yes']);
  runs.push(r);
  return r;
}

beforeAll(async () => {
  site = await serve(secretRoutes);
  dir = tempDir('webcap-secrets-cli-');
  configFile = join(dir, 'agent_config.toml');
  writeFileSync(configFile, `[capabilities.browser]
domains_allowlist = ["site.test", "intranet"]
respect_robots = false
max_actions_per_minute = 10000
default_timeout_ms = 30000

[network]
resolve = { "site.test" = "127.0.0.1", "intranet" = "127.0.0.1" }
allow_private = ["127.0.0.1"]

[chain]
path = "chain.jsonl"

[workspace]
path = "ws"

[logging]
level = "trace"
file = "webcap.log"
`);
}, 60_000);
afterAll(async () => { await site?.close(); });

describe('webcap run keeps secrets out of the chain, the log and stderr', () => {
  it('types passwords, submits a GET form, opens credential URLs: the plan works and nothing leaks', async () => {
    const keys = [...SECRETS.keyed].map((k) => `(call :web.keypress {:selector "#pin2" :keys ["${k}"]})`).join('\n  ');
    const switched = `(call :web.keypress {:selector "#sw" :keys [${[...SECRETS.switched].map((k) => JSON.stringify(k)).join(' ')}]})`;
    const query = `token=${SECRETS.token}&session=${SECRETS.session}&pin=${SECRETS.pin}&pass=${encodeURIComponent(SECRETS.pass)}`;
    const r = await runPlan('login', `(do
  (call :web.open {:url "${site.url('site.test', '/login')}"})
  (call :web.fill {:selector "#user" :text "bob"})
  (call :web.fill {:selector "#pw" :text "${SECRETS.filled}"})
  ${keys}
  ${switched}
  (call :web.fill {:selector "#sw2" :text "${SECRETS.switchedFill}"})
  (call :web.click {:selector "#go" :wait_until "load"})
  (let [landed (call :web.url {})]
    (call :web.navigate {:url "${site.url('site.test', `/welcome?${query}`)}"})
    (call :web.navigate {:url "http://admin:${SECRETS.userinfo}@intranet:${site.port}/"})
    (return (get landed :url))))`);
    expect(r.stderr).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    // The form really went out with the secrets in it: what is hidden below was there to hide.
    const sent = site.hits.find((h) => h.includes('/welcome?user=bob'))!;
    expect(sent).toContain(`q=${new URLSearchParams({ v: SECRETS.filled }).toString().slice(2)}`);
    expect(sent).toContain(`extra=${SECRETS.keyed}`);
    expect(sent).toContain(`other=${SECRETS.switched}`);
    expect(sent).toContain(`other2=${SECRETS.switchedFill}`);
    expect(site.hits.some((h) => h.includes(`token=${SECRETS.token}`))).toBe(true);
    // The step log shows selectors and named keys, never typed text.
    expect(r.stderr).toMatch(/✓ web\.keypress #pin2/);
    expect(r.stderr).toMatch(/✓ web\.fill #pw/);
  });

  it('a fill whose field never appears fails without recording its text', async () => {
    const r = await runPlan('late', `(do
  (call :web.open {:url "${site.url('site.test', '/login')}"})
  (call :web.fill {:selector "#late" :text "${SECRETS.failedFill}" :timeout 500}))`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: (selector_not_found|timeout)/);
  });

  it('an unknown capability id holding a token is refused and named by its shape only', async () => {
    const r = await runPlan('bad-id', `(call "web.open?token=${SECRETS.inId}" {:url "${site.url('site.test', '/')}"})`);
    expect(r.code).toBe(1);
    // Refused by the plan check before any call, pointing at the id.
    expect(r.stderr).toMatch(/error: unknown_capability: plan:1:\d+: no capability "\(malformed capability id, \d+ characters\)"/);
  });

  it('the chain, the log and every stderr hold none of the secrets in any encoding', () => {
    const chain = readFileSync(join(dir, 'chain.jsonl'), 'utf8');
    const log = readFileSync(join(dir, 'webcap.log'), 'utf8');
    const stderr = runs.map((r) => r.stderr).join('\n');
    expect(runs).toHaveLength(3);
    expect(leaks(chain), 'chain').toEqual([]);
    expect(leaks(log), 'log').toEqual([]);
    expect(leaks(stderr), 'stderr').toEqual([]);
    // The calls are recorded all the same, with what was typed hidden.
    const entries = chain.trim().split('\n').map((l) => JSON.parse(l) as { kind?: string; capability?: string; params?: Record<string, unknown> | null; error?: { code: string } | null });
    const keypresses = entries.filter((e) => e.kind === 'call' && e.capability === 'web.keypress');
    expect(keypresses).toHaveLength(SECRETS.keyed.length + 1);
    for (const e of keypresses) expect(e.params!.keys).toEqual(['[REDACTED]']);
    expect(entries.find((e) => e.kind === 'call' && e.capability === 'web.fill' && e.params!.selector === '#user')!.params!.text).toBe('bob');
    expect(entries.find((e) => e.kind === 'call' && e.capability === 'web.fill' && e.params!.selector === '#late')!.params!.text).toBe('[REDACTED]');
    // The malformed id never reached the host: the plan check refused it first (nothing to record, nothing leaked).
    expect(entries.some((e) => /token/.test(e.capability ?? ''))).toBe(false);
  });
});
