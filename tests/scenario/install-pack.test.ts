// Installing webcap into another project as its README says: the tarball from
// `npm pack`, installed with npm into a fresh project, imported by name; its
// shipped types compile in the consumer with @types/node and nothing else.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const exec = promisify(execFile);
const root = resolve('.');
const dir = mkdtempSync(join(tmpdir(), 'webcap-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('npm pack → npm install in a new project → import, type-check and list the capabilities', async () => {
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', npm_config_audit: 'false', npm_config_fund: 'false' };
  // --ignore-scripts: the build is already there (prepack would rebuild the tree under test).
  await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root, env });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await exec('npm', ['install', '--prefer-offline', '--ignore-scripts', join(dir, tarball), '@types/node@20'], { cwd: dir, env, timeout: 240_000 });
  writeFileSync(join(dir, 'use.ts'), [
    "import { createHost, WebcapError, type Host } from 'webcap';",
    "const host: Host = createHost({ config: { chain: { path: '.webcap/chain.jsonl' } } });",
    "console.log(host.capabilities().map((m) => m.id).join(' '));",
    "console.log(new WebcapError('timeout', 'x').code);",
    'await host.close();',
  ].join('\n'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'] }, files: ['use.ts'] }));
  await exec(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir });
  const { stdout } = await exec(process.execPath, ['use.js'], { cwd: dir });
  expect(stdout).toContain('web.open');
  expect(stdout).toContain('web.extract');
  expect(stdout.trim().split('\n').at(-1)).toBe('timeout');
  const { stdout: version } = await exec(join(dir, 'node_modules', '.bin', 'webcap'), ['--version'], { cwd: dir });
  expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
  // The native client ships as source only: without its own setup the sh entry runs the Node CLI (as above).
  expect(existsSync(join(dir, 'node_modules', 'webcap', 'native', 'webcap-thin.c'))).toBe(true);
  expect(existsSync(join(dir, 'node_modules', 'webcap', 'native', 'webcap-thin'))).toBe(false);
}, 300_000);
