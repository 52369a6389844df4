// The causal chain as a write-ahead log, through the real CLI: two processes on
// one chain, a full disk, and the verify anchors a user keeps.
import { generateKeyPairSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { webcap } from '../helpers/cli.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { rehashedFrom } from '../unit/chain/rewrite.js';

let site: FixtureServer;
beforeAll(async () => { site = await serve({ '*': (_req, res) => send(res, html('<h1>Page</h1>')) }); });
afterAll(async () => { await site?.close(); });

function setup(chainPath = 'chain.jsonl'): { dir: string; config: string } {
  const dir = tempDir();
  const config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[capabilities.browser]
domains_allowlist = ["127.0.0.1"]
max_actions_per_minute = 1000000

[network]
allow_private = ["127.0.0.1"]

[chain]
path = "${chainPath}"

[workspace]
path = "ws"
`);
  return { dir, config };
}

const askLoop = (n: number) => `(loop [i 0] (if (< i ${n}) (do (call :ccos.user.ask {:question "step?"}) (recur (inc i))) i))`;

describe('chain as a write-ahead log (webcap CLI)', () => {
  it('two `webcap run` processes of 1,000 steps each on one chain leave a chain that verifies', async () => {
    const { dir, config } = setup();
    const plan = join(dir, 'plan.rtfs');
    writeFileSync(plan, askLoop(1000));
    const [a, b] = await Promise.all([1, 2].map(() => webcap(['run', plan, '--config', config, '--yes', '--json'])));
    expect([a.code, a.stdout.trim(), a.stderr.split('\n').filter((l) => l.startsWith('error')).join('')]).toEqual([0, '1000', '']);
    expect([b.code, b.stdout.trim()]).toEqual([0, '1000']);
    const entries = readEntries(join(dir, 'chain.jsonl'));
    const calls = entries.filter((e) => e.kind === 'call' && e.capability === 'ccos.user.ask');
    expect(calls).toHaveLength(2000);
    expect(entries.filter((e) => e.kind === 'intent')).toHaveLength(2000);
    expect(new Set(calls.map((e) => e.plan_id)).size).toBe(2);
    const v = await webcap(['chain', 'verify', '--config', config]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`chain intact: ${entries.length} entries`);
    expect(v.stdout).toContain(`head: ${entries.at(-1)!.hash}`);
  }, 240_000);

  it('a full disk stops the call before anything happens: the page is never requested', async () => {
    const { dir, config } = setup('full/chain.jsonl');
    // A real full filesystem: a 64 KiB tmpfs filled to the last byte (the chain file is created, every write is ENOSPC).
    const full = join(dir, 'full');
    mkdirSync(full);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]);
    try {
      try { writeFileSync(join(full, 'filler'), Buffer.alloc(128 * 1024)); } catch { /* ENOSPC: full now */ }
      const plan = join(dir, 'open.rtfs');
      writeFileSync(plan, `(call :web.open {:url "${site.url('127.0.0.1', '/wal-full-disk')}"})`);
      const before = site.hits.length;
      const r = await webcap(['run', plan, '--config', config, '--json']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'internal', message: expect.stringMatching(/web\.open: not run: .*causal chain.*nothing was done.*ENOSPC/) });
      expect(site.hits.slice(before)).toEqual([]); // not even robots.txt
    } finally {
      execFileSync('umount', [full]);
    }
  }, 60_000);

  it('the result entry follows its intent and points back to it', async () => {
    const { dir, config } = setup();
    const plan = join(dir, 'plan.rtfs');
    writeFileSync(plan, `(call :web.open {:url "${site.url('127.0.0.1', '/wal-order')}"})`);
    const r = await webcap(['run', plan, '--config', config, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const entries = readEntries(join(dir, 'chain.jsonl'));
    const intent = entries.find((e) => e.kind === 'intent' && e.capability === 'web.open')!;
    const call = entries.find((e) => e.kind === 'call' && e.capability === 'web.open')!;
    expect(intent.params).toMatchObject({ url: site.url('127.0.0.1', '/wal-order') });
    expect(call.intent_seq).toBe(intent.seq);
    expect(call.seq).toBeGreaterThan(intent.seq);
  }, 60_000);

  it('`chain verify --expect-head` passes on growth and fails on truncation', async () => {
    const { dir, config } = setup();
    const plan = join(dir, 'plan.rtfs');
    writeFileSync(plan, askLoop(3));
    expect((await webcap(['run', plan, '--config', config, '--yes'])).code).toBe(0);
    const first = await webcap(['chain', 'verify', '--config', config]);
    const head = /head: ([0-9a-f]{64})/.exec(first.stdout)![1];
    expect((await webcap(['run', plan, '--config', config, '--yes'])).code).toBe(0);
    const grown = await webcap(['chain', 'verify', '--config', config, '--expect-head', head]);
    expect([grown.code, grown.stdout]).toEqual([0, expect.stringMatching(/expected head found: \d+ entries after it/)]);
    const file = join(dir, 'chain.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const at = lines.findIndex((l) => l.includes(head));
    writeFileSync(file, `${lines.slice(0, at).join('\n')}\n`);
    expect((await webcap(['chain', 'verify', '--config', config])).code).toBe(0); // a clean cut: the file alone cannot tell
    const cut = await webcap(['chain', 'verify', '--config', config, '--expect-head', head]);
    expect([cut.code, cut.stdout]).toEqual([1, expect.stringMatching(/TAMPERED.*truncated or rewritten/)]);
  }, 60_000);

  it('signs checkpoints with [chain] signing_key_env; verify --public-key catches a consistent rewrite and a truncation', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const { dir, config } = setup();
    writeFileSync(config, readFileSync(config, 'utf8').replace('path = "chain.jsonl"\n', 'path = "chain.jsonl"\nsigning_key_env = "WEBCAP_TEST_CHAIN_KEY"\ncheckpoint_every = 5\n'));
    const pub = join(dir, 'chain.pub');
    writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
    const plan = join(dir, 'plan.rtfs');
    writeFileSync(plan, askLoop(4));
    process.env.WEBCAP_TEST_CHAIN_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      expect((await webcap(['run', plan, '--config', config, '--yes'])).code).toBe(0);
    } finally {
      delete process.env.WEBCAP_TEST_CHAIN_KEY;
    }
    const file = join(dir, 'chain.jsonl');
    const ok = await webcap(['chain', 'verify', file, '--public-key', pub]);
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringMatching(/signed checkpoints: [2-9]\d* valid, signed through entry #\d+; 0 entries after the last checkpoint/)]);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${rehashedFrom(lines, 1).join('\n')}\n`);
    expect((await webcap(['chain', 'verify', file])).code).toBe(0); // the hash chain alone is fooled
    const rewritten = await webcap(['chain', 'verify', file, '--public-key', pub]);
    expect([rewritten.code, rewritten.stdout]).toEqual([1, expect.stringMatching(/TAMPERED.*rewritten/)]);
    writeFileSync(file, `${lines.slice(0, 6).join('\n')}\n`);
    const cut = await webcap(['chain', 'verify', file, '--public-key', pub]);
    expect([cut.code, cut.stdout]).toEqual([1, expect.stringMatching(/TAMPERED.*truncated: the signed head/)]);
  }, 60_000);

  it('stops start-up with invalid_params naming the key: bad allow_private, bad redaction pattern, chain in a tool folder', async () => {
    const cases: Array<[string, RegExp]> = [
      ['[network]\nallow_private = ["10.0.0.0/40"]\n', /error: invalid_params: .*"network\.allow_private"/],
      ['[redaction]\npatterns = ["(oops"]\n', /error: invalid_params: .*"redaction\.patterns": invalid regular expression/],
      ['[workspace]\npath = "ws"\n[chain]\npath = "ws/downloads/chain.jsonl"\n', /error: invalid_params: .*"chain\.path" .* downloads folder/],
    ];
    for (const [toml, expected] of cases) {
      const dir = tempDir();
      writeFileSync(join(dir, 'agent_config.toml'), toml);
      writeFileSync(join(dir, 'plan.rtfs'), '(call :ccos.user.ask {:question "x"})');
      const r = await webcap(['run', join(dir, 'plan.rtfs'), '--config', join(dir, 'agent_config.toml'), '--yes']);
      expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(expected)]);
    }
  }, 60_000);
});
