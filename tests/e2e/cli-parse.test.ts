// The command line as people type it: mistakes get a suggestion and exit 2,
// help never runs anything, --config works both ways, -y is --yes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';

describe('webcap command line', () => {
  it('an unknown option or command is an error with a suggestion, exit 2', async () => {
    const opt = await webcap(['call', 'web.url', '--confg', 'x.toml']);
    expect([opt.code, opt.stderr]).toEqual([2, expect.stringContaining("unknown option '--confg'")]);
    expect(opt.stderr).toContain('Did you mean --config?');
    const cmd = await webcap(['chian', 'verify']);
    expect([cmd.code, cmd.stderr]).toEqual([2, expect.stringContaining("unknown command 'chian'")]);
    expect(cmd.stderr).toContain('Did you mean chain?');
    const sub = await webcap(['daemon', 'statsu']);
    expect([sub.code, sub.stderr]).toEqual([2, expect.stringContaining('Did you mean status?')]);
  });

  it('help CMD and CMD --help print that command\'s help and run nothing', async () => {
    const dir = tempDir();
    for (const args of [['demo', '--help'], ['help', 'demo'], ['mcp', '--help'], ['run', '--help'], ['help', 'call']]) {
      const r = await webcap(args, dir);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: webcap ${args[0] === 'help' ? args[1] : args[0]} `));
    }
    // Nothing ran: no demo chain, no workspace.
    expect(() => readFileSync(join(dir, '.webcap', 'demo', 'chain.jsonl'))).toThrow();
  });

  it('--version prints the package version', async () => {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    const r = await webcap(['--version']);
    expect([r.code, r.stdout.trim()]).toEqual([0, version]);
  });

  it('--config=FILE and --config FILE both work; -y approves like --yes', async () => {
    const dir = tempDir();
    const config = join(dir, 'mine.toml');
    writeFileSync(config, '[chain]\npath = "mine-chain.jsonl"\n');
    for (const args of [['--config=' + config], ['--config', config]]) {
      const r = await webcap(['call', 'ccos.user.ask', '{"question":"ok?"}', '-y', '--json', ...args], dir);
      expect([r.code, JSON.parse(r.stdout)]).toEqual([0, { approved: true }]);
    }
    expect(readFileSync(join(dir, 'mine-chain.jsonl'), 'utf8').split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(4);
    const bad = await webcap(['call', 'web.url', '--config=' + join(dir, 'nope.toml')], dir);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/^error: invalid_params: config file not found/)]);
  });

  it('manifests ID prints one capability\'s parameters from its manifest', async () => {
    const r = await webcap(['manifests', 'web.open']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^web\.open /);
    expect(r.stdout).toMatch(/url \(required\)\s+string/);
    expect(r.stdout).toMatch(/profile\s+string/);
    const missing = await webcap(['manifests', 'web.opne']);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/^error: unknown_capability: no capability "web.opne"/)]);
  });
});
