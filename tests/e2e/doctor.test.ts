// `webcap doctor` against real parts: the CLI with a Redis store and real
// Chromium (all pass, one line per check, exit 0), then each part broken the
// way it breaks in production: a Redis that went away, a Redis that refuses
// writes (a read-only replica), a chain someone edited, a config typo.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../host/ops/doctor.js';
import { webcap } from '../helpers/cli.js';
import { tempDir } from '../helpers/host.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
beforeAll(async () => { redis = await startRedis(); });
afterAll(async () => { await redis?.stop(); });

function configFile(dir: string, extra = ''): string {
  const file = join(dir, 'agent_config.toml');
  writeFileSync(file, `[workspace]\npath = "${dir}/ws"\n[chain]\npath = "${dir}/ws/chain.jsonl"\n[logging]\nfile = "${dir}/ws/webcap.log"\n${extra}`);
  return file;
}
const byName = (r: { checks: Array<{ name: string; ok: boolean; detail?: string }> }, name: string) => r.checks.find((c) => c.name === name);

describe('webcap doctor', () => {
  it('passes every check on a healthy install with a Redis store: one line per check, exit 0, --json for programs', async () => {
    const dir = tempDir('webcap-doctor-');
    const file = configFile(dir, `[store]\nurl = "${redis.url}"\n`);
    const run = await webcap(['doctor', '--config', file], dir, { SERPAPI_API_KEY: 'x' });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    for (const name of ['config', 'workspace', 'chain', 'store_ping', 'store_script', 'store_write', 'search_serpapi', 'search_exa', 'sidecar_attestation', 'chromium']) {
      expect(lines.some((l) => new RegExp(`^(ok|warn)\\s+${name}\\b`).test(l))).toBe(true);
    }
    expect(lines.find((l) => /\bsearch_serpapi\b/.test(l))).toMatch(/^ok /);
    expect(lines.find((l) => /\bsearch_exa\b/.test(l))).toMatch(/^warn .*EXA_API_KEY is not set/);
    expect(lines.find((l) => /\bchromium\b/.test(l))).toMatch(/opened a loopback page/);
    const json = await webcap(['doctor', '--config', file, '--json'], dir);
    const report = JSON.parse(json.stdout) as { ok: boolean; checks: unknown[] };
    expect(report.ok).toBe(true);
    expect(report.checks.length).toBe(lines.length);
  });

  it('fails with a clear line and exit 1 for a config typo, without going further', async () => {
    const dir = tempDir('webcap-doctor-');
    const run = await webcap(['doctor', '--config', configFile(dir, '[budgets]\nper_capability_daily = { "web.screenshot" = 50 }\n')], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL\s+config\s+.*unknown key "budgets\.per_capability_daily"/m);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('fails the store checks against a Redis that refuses writes (read-only replica), then one that is gone', async () => {
    const dir = tempDir('webcap-doctor-');
    const file = configFile(dir, `[store]\nurl = "${redis.url}"\n`);
    const admin = new Redis(redis.url);
    try {
      await admin.call('REPLICAOF', '127.0.0.1', '1');
      const readOnly = await runDoctor(file);
      expect(readOnly.ok).toBe(false);
      expect(byName(readOnly, 'store_ping')?.ok).toBe(true);
      expect(byName(readOnly, 'store_write')).toMatchObject({ ok: false, detail: expect.stringMatching(/READONLY/) });
    } finally {
      await admin.call('REPLICAOF', 'NO', 'ONE');
      admin.disconnect();
    }
    await redis.stop();
    try {
      const gone = await runDoctor(file);
      expect(gone.ok).toBe(false);
      expect(byName(gone, 'store_ping')?.ok).toBe(false);
      expect(byName(gone, 'chromium')?.ok).toBe(true); // the other checks still ran
    } finally {
      await redis.start();
    }
  });

  it('fails the chain check when the chain was edited', async () => {
    const dir = tempDir('webcap-doctor-');
    const file = configFile(dir);
    expect((await runDoctor(file)).ok).toBe(true); // its own probe leaves the user's chain alone
    const chain = join(dir, 'ws', 'chain.jsonl');
    appendFileSync(chain, '{"seq":0,"kind":"call","capability":"web.open","hash":"forged"}\n');
    const r = await runDoctor(file);
    expect(r.ok).toBe(false);
    expect(byName(r, 'chain')).toMatchObject({ ok: false, detail: expect.stringMatching(/does not verify/) });
  });
});
