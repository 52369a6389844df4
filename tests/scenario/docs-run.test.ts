// The documentation as a reader runs it: every block marked runnable in README.md
// and docs/ is executed against the bundled demo sites (webcap demo --serve on
// loopback), in a fresh folder with `webcap` on the PATH. A block that stops
// working fails here.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, symlinkSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentationFiles, runnableBlocks } from '../helpers/doc-blocks.js';

const root = resolve('.');
const blocks = documentationFiles(root).flatMap(runnableBlocks);
let dir: string;
let serve: ChildProcess;
let env: NodeJS.ProcessEnv;

// `terminal`: run it as a terminal's shell is, the leader of its own session; where this runs without
// one (a container whose processes have session id 0) a verb's caller would otherwise be its parent
// process, and bash execs a script's last command in its own place, with the test as that parent.
function run(cmd: string, args: string[], { timeout = 240_000, terminal = false } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: dir, env, timeout, detached: terminal });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webcap-docs-'));
  cpSync(join(root, 'examples'), join(dir, 'examples'), { recursive: true });
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'webcap'), `#!/bin/sh\nexec node ${JSON.stringify(join(root, 'bin', 'webcap.js'))} "$@"\n`);
  chmodSync(join(dir, 'bin', 'webcap'), 0o755);
  env = { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` };
  delete env.WEBCAP_CONFIG;
  serve = spawn(process.execPath, [join(root, 'bin', 'webcap.js'), 'demo', '--serve'], { cwd: dir, env });
  await new Promise<void>((ready, fail) => {
    let out = '';
    serve.stdout!.on('data', (d) => { out += d; if (out.includes('demo sites serving')) ready(); });
    serve.on('exit', (code) => fail(new Error(`demo --serve exited (${code}): ${out}`)));
  });
});

afterAll(() => {
  // The tour's commands left a daemon for the demo workspace running: stop it like a reader would.
  execFileSync('sh', ['-c', 'WEBCAP_CONFIG=examples/agent_config.toml webcap daemon stop || true'], { cwd: dir, env });
  serve?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('runnable documentation', () => {
  it('marks at least the README tour as runnable', () => {
    expect(blocks.filter((b) => b.file.endsWith('README.md') && b.kind === 'demo').length).toBeGreaterThanOrEqual(3);
    expect(blocks.some((b) => b.kind === 'demo-library')).toBe(true);
  });

  for (const file of [...new Set(blocks.filter((b) => b.kind === 'demo').map((b) => b.file))]) {
    it(`${file.slice(root.length + 1)}: its shell blocks run in order, each command succeeding`, async () => {
      const script = ['set -euo pipefail', ...blocks.filter((b) => b.file === file && b.kind === 'demo').map((b) => `# ${b.file}:${b.line}\n${b.code}`)].join('\n');
      const res = await run('bash', ['-c', script], { terminal: true });
      expect(res.stderr, res.stdout).not.toMatch(/^error: /m);
      expect(res.code, res.stderr).toBe(0);
      if (file.endsWith('README.md')) {
        expect(res.stdout).toContain('chain intact');
        expect(res.stdout).toContain('Bistro Juliette 1'); // the plan's places
      }
    }, 300_000);
  }

  it('the library example type-checks and runs against the demo sites', async () => {
    const proj = join(dir, 'consumer');
    mkdirSync(join(proj, 'node_modules'), { recursive: true });
    symlinkSync(root, join(proj, 'node_modules', 'webcap'));
    cpSync(join(root, 'examples'), join(proj, 'examples'), { recursive: true });
    const code = blocks.filter((b) => b.kind === 'demo-library').map((b) => b.code).join('\n');
    writeFileSync(join(proj, 'package.json'), '{"type":"module"}\n');
    writeFileSync(join(proj, 'example.ts'), code);
    writeFileSync(join(proj, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] }, files: ['example.ts'] }));
    const tsc = await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(proj, 'tsconfig.json')]);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
    const res = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, ['example.js'], { cwd: proj, env, timeout: 120_000 });
      let stdout = ''; let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (c) => done({ code: c, stdout, stderr }));
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Demo Maps');
    expect(res.stdout).toContain('Bistro Juliette 1');
  }, 300_000);
});
