// `webcap secrets` as a user runs it: a value from stdin (trailing newline not
// part of it), never from arguments; `list` shows names, kinds, origins and
// last use but no value; the file on disk holds no value either; without the
// key the error names the variable and how to make a key, readable.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../host/secrets/vault.js';
import { tempDir } from '../helpers/host.js';

const bin = resolve('bin/webcap.js');
const KEY = 'c'.repeat(64);
const VALUE = 'S3cret value@home';
let dir: string;
let config: string;

function webcap(args: string[], stdin: string, env: Record<string, string> = { WEBCAP_VAULT_KEY: KEY }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args, '--config', config], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WEBCAP_DAEMON: '0', WEBCAP_VAULT_KEY: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

beforeAll(() => {
  dir = tempDir('webcap-secrets-cli-');
  config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[chain]\npath = "chain.jsonl"\n\n[secrets]\nkey_env = "WEBCAP_VAULT_KEY"\npath = "vault.json"\n`);
});

describe('webcap secrets', () => {
  it('without the key: names the variable and the command that makes one, readable, and stores nothing', async () => {
    const r = await webcap(['secrets', 'set', 'bank', '--origin', 'https://bank.example'], `${VALUE}\n`, {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('$WEBCAP_VAULT_KEY');
    expect(r.stderr).toContain('openssl rand -hex 32');
    expect(r.stderr).not.toContain('[REDACTED]');
    expect(() => readFileSync(join(dir, 'vault.json'))).toThrow();
  });

  it('set reads stdin (one trailing newline dropped); list shows no value; the file holds none', async () => {
    const r = await webcap(['secrets', 'set', 'bank', '--origin', 'https://bank.example', '--origin', 'http://127.0.0.1:8080'], `${VALUE}\n`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    process.env.WEBCAP_VAULT_KEY = KEY;
    const cfg = { secrets: { path: join(dir, 'vault.json'), key_env: 'WEBCAP_VAULT_KEY', dlp: true } };
    expect(openSecret(cfg, 'bank').value).toBe(VALUE);
    const list = await webcap(['secrets', 'list', '--json'], '');
    const rows = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(rows).toEqual([expect.objectContaining({ name: 'bank', kind: 'secret', origins: ['http://127.0.0.1:8080', 'https://bank.example'] })]);
    expect(rows[0].last_used).toBeDefined(); // openSecret above used it
    const text = await webcap(['secrets', 'list'], '');
    expect(text.stdout).toMatch(/^bank\s+secret\s+last used \S+\s+http:\/\/127\.0\.0\.1:8080 https:\/\/bank\.example/m);
    for (const out of [list.stdout, text.stdout, readFileSync(join(dir, 'vault.json'), 'utf8')]) {
      expect(out).not.toContain(VALUE);
      expect(out).not.toContain(Buffer.from(VALUE).toString('base64'));
    }
  });

  it('on a terminal (a real pty, through script(1)): a prompt, no echo of what is typed, Backspace edits it', async () => {
    const cmd = `${process.execPath} ${bin} secrets set typed --origin https://bank.example --config ${config}`;
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WEBCAP_DAEMON: '0', WEBCAP_VAULT_KEY: KEY } });
    let screen = '';
    let typed = false;
    child.stdout.on('data', (d: Buffer) => {
      screen += d.toString();
      // Typed only once the prompt shows (before it, the terminal is still in its echoing mode, as with any password prompt).
      if (!typed && screen.includes('value for typed')) { typed = true; child.stdin.write('Typed-pwX\x7f-0k\r'); }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    expect(screen).toContain('value for typed');
    expect(screen).not.toContain('Typed');
    expect(screen).not.toContain('-0k');
    process.env.WEBCAP_VAULT_KEY = KEY;
    expect(openSecret({ secrets: { path: join(dir, 'vault.json'), key_env: 'WEBCAP_VAULT_KEY', dlp: true } }, 'typed').value).toBe('Typed-pw-0k');
    expect((await webcap(['secrets', 'rm', 'typed'], '')).code).toBe(0);
  });

  it('a value is never taken from arguments; a bad origin or name is refused before the value is read', async () => {
    const argv = await webcap(['secrets', 'set', 'x', '--origin', 'https://a.example', '--value', VALUE], '');
    expect(argv.code).not.toBe(0);
    const path = await webcap(['secrets', 'set', 'x', '--origin', 'https://a.example/login'], `${VALUE}\n`);
    expect(path.stderr).toMatch(/error: invalid_params: origin "https:\/\/a\.example\/login": an origin is scheme:\/\/host\[:port\] only/);
    const name = await webcap(['secrets', 'set', '../x', '--origin', 'https://a.example'], `${VALUE}\n`);
    expect(name.stderr).toMatch(/error: invalid_params: secret name/);
  });

  it('--totp takes a base32 seed and refuses text that is not one; rm deletes', async () => {
    expect((await webcap(['secrets', 'set', 'otp', '--origin', 'https://bank.example', '--totp'], 'JBSWY3DPEHPK3PXP\n')).code).toBe(0);
    const bad = await webcap(['secrets', 'set', 'otp2', '--origin', 'https://bank.example', '--totp'], 'not base32 !!\n');
    expect(bad.stderr).toMatch(/error: invalid_params: secret "otp2" \(--totp\): give the base32 seed/);
    expect(bad.stderr).not.toContain('not base32 !!');
    expect((await webcap(['secrets', 'rm', 'otp'], '')).code).toBe(0);
    const rows = JSON.parse((await webcap(['secrets', 'list', '--json'], '')).stdout) as Array<{ name: string }>;
    expect(rows.map((r) => r.name)).toEqual(['bank']);
    expect((await webcap(['secrets', 'rm', 'otp'], '')).stderr).toMatch(/no secret "otp"/);
  });
});
