// `webcap run` against a plan too big to read and a plan that never ends, as
// real processes: a 20 MB plan is refused (invalid_params, [plans] max_bytes)
// without being read, and SIGTERM during a busy plan leaves an `interrupted`
// event in the chain and ends the process.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readChainEntries } from '../../host/replay/chain-calls.js';
import { webcap } from '../helpers/cli.js';
import { tempDir } from '../helpers/host.js';

function workspace(plans = ''): { dir: string; config: string } {
  const dir = tempDir('webcap-plan-bounds-');
  const config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[chain]\npath = "chain.jsonl"\n[workspace]\npath = "ws"\n${plans}`);
  return { dir, config };
}

describe('webcap run: bounded reading', () => {
  it('a 20 MB plan (one long string in a log form) is refused with invalid_params naming [plans] max_bytes', async () => {
    const { dir, config } = workspace();
    writeFileSync(join(dir, 'big.rtfs'), `(log "${'x'.repeat(20 * 1024 * 1024)}")`);
    const r = await webcap(['run', join(dir, 'big.rtfs'), '--config', config, '--json'], dir);
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stdout).error as { code: string; message: string };
    expect(error.code).toBe('invalid_params');
    expect(error.message).toMatch(/is 20971\d+ bytes, more than \[plans\] max_bytes \(1048576\)/);
    expect(r.stderr).not.toContain('log: x');
  }, 60_000);

  it('[plans] max_bytes is the configured limit', async () => {
    const { dir, config } = workspace('[plans]\nmax_bytes = 64\n');
    writeFileSync(join(dir, 'p.rtfs'), `(log "${'y'.repeat(100)}")`);
    const r = await webcap(['run', join(dir, 'p.rtfs'), '--config', config, '--json'], dir);
    expect(JSON.parse(r.stdout).error.message).toMatch(/more than \[plans\] max_bytes \(64\)/);
  }, 60_000);
});

describe('webcap run: a signal always ends it', () => {
  // A child that ignored the signal must not outlive the test (a timeout skips the test's own cleanup).
  let child: ReturnType<typeof spawn> | undefined;
  afterEach(() => { if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });

  it('SIGTERM during a loop that never calls out: `interrupted` in the chain, exit 143', async () => {
    const { dir, config } = workspace('[plans]\nmax_steps = 1000000000000\nmax_duration_s = 3600\n');
    writeFileSync(join(dir, 'busy.rtfs'), '(do (log "started") (loop [i 0] (recur (inc i))))');
    child = spawn(process.execPath, [resolve('bin/webcap.js'), 'run', join(dir, 'busy.rtfs'), '--config', config], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEBCAP_CONFIG: '', WEBCAP_DAEMON: '0' } });
    const proc = child;
    let stderr = '';
    await new Promise<void>((started) => proc.stderr!.on('data', (d) => { stderr += d; if (stderr.includes('log: started')) started(); }));
    const exited = new Promise<number | null>((done) => proc.on('close', (code) => done(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(143);
    const interrupted = readChainEntries(join(dir, 'chain.jsonl')).filter((e) => e.kind === 'event' && (e.result as { event?: string }).event === 'interrupted');
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]!.result).toMatchObject({ signal: 'SIGTERM', command: 'run' });
  }, 60_000);
});
