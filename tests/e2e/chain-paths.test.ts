// Where chains are written and read: a run with a config in another folder,
// then `chain show`, `chain verify` and `report` with no FILE, read the chain
// that run wrote; the demo and the examples' config write the same chain.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { webcap } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'webcap-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('chain show, chain verify and report without FILE read the chain the last run wrote', async () => {
  mkdirSync(join(dir, 'conf'));
  writeFileSync(join(dir, 'conf', 'agent_config.toml'), '[chain]\npath = "runs/chain.jsonl"\n[workspace]\npath = "runs"\n');
  // One call the host refuses before any browser starts, so the run leaves a call in its chain.
  writeFileSync(join(dir, 'plan.rtfs'), '(do (log "marker-7f3a") (call :web.open {:url "ftp://files.test/"}))');
  const run = await webcap(['run', 'plan.rtfs', '--config', 'conf/agent_config.toml', '--json'], dir);
  expect(run.stdout).toContain('unsupported_scheme');
  const written = join(dir, 'conf', 'runs', 'chain.jsonl');
  expect(existsSync(written)).toBe(true);

  const verify = await webcap(['chain', 'verify'], dir);
  expect(verify.code, verify.stderr).toBe(0);
  expect(verify.stdout).toContain(written);
  const show = await webcap(['chain', 'show'], dir);
  expect(show.code, show.stderr).toBe(0);
  expect(show.stdout).toContain('CAPABILITY'); // the default .webcap/chain.jsonl does not exist here: code 0 means it read the run's
  const report = await webcap(['report', '-o', 'r.html'], dir);
  expect(report.code, report.stderr).toBe(0);
  expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('unsupported_scheme');

  // A config chosen explicitly still wins over what the last run wrote.
  writeFileSync(join(dir, 'other.toml'), '[chain]\npath = "elsewhere/chain.jsonl"\n');
  const chosen = await webcap(['chain', 'verify', '--config', 'other.toml'], dir);
  expect(chosen.code).toBe(1);
  expect(chosen.stderr).toContain(join(dir, 'elsewhere', 'chain.jsonl'));
});

it('chain export --json prints the plan, its source and its inputs as one JSON object', async () => {
  const d = mkdtempSync(join(tmpdir(), 'webcap-export-json-'));
  try {
    writeFileSync(join(d, 'ask.rtfs'), '(call :ccos.user.ask {:question "Go on?"})');
    const run = await webcap(['run', 'ask.rtfs', '--yes', '--config', join(d, 'none.toml')], d);
    expect(run.code, run.stderr).toBe(1); // no such config: the command says so
    writeFileSync(join(d, 'agent_config.toml'), '[chain]\npath = "chain.jsonl"\n');
    const ok = await webcap(['run', 'ask.rtfs', '--yes', '--config', 'agent_config.toml'], d);
    expect(ok.code, ok.stderr).toBe(0);
    const out = await webcap(['chain', 'export', '--last', '--json'], d);
    expect(out.code, out.stderr).toBe(0);
    const parsed = JSON.parse(out.stdout) as { plan: string; steps: number; source: string; inputs: unknown[] };
    expect(parsed.steps).toBe(1);
    expect(parsed.plan).toContain('(call :ccos.user.ask');
    expect(parsed.source).toContain('chain.jsonl');
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});
