// Hostile files in the workspace: links planted where tools write, and hard
// links to webcap's own files offered to web.upload. No tool writes through a
// link to outside its folder; the chain, log and cache never leave. Real stack:
// host → sidecar → Chromium → loopback site.
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { verifyChain } from '../../host/chain/verify.js';
import { toolsRoutes } from '../fixtures/tools-site.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';
import { failure } from '../helpers/failure.js';

type Row = Record<string, unknown>;
let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;
let workspace: string;
let outside: string;
const at = (path: string) => site.url('site.test', path);

beforeAll(async () => {
  site = await serve(toolsRoutes(() => site.url('evil.test', '')));
  config = testConfig({ browser: { domains_allowlist: ['site.test'] }, network: { resolve: { 'site.test': '127.0.0.1' } } });
  workspace = config.workspace.path;
  outside = tempDir();
  host = testHost(config);
  await host.call('web.open', { url: at('/article') });
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe('no tool writes through a link', () => {
  it('web.screenshot refuses a dangling symlink to outside the workspace and creates nothing there', async () => {
    mkdirSync(join(workspace, 'screenshots'), { recursive: true });
    symlinkSync(join(outside, 'planted.png'), join(workspace, 'screenshots', 'dangling.png'));
    const e = await failure(host.call('web.screenshot', { path: 'dangling.png' }));
    expect([e.code, e.message]).toEqual(['invalid_params', expect.stringMatching(/symbolic link/)]);
    expect(existsSync(join(outside, 'planted.png'))).toBe(false);
    const full = await failure(host.call('web.screenshot', { path: 'dangling.png', full_page: true }));
    expect(full.code).toBe('invalid_params');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('web.screenshot refuses a hard link to the chain and leaves the chain intact', async () => {
    linkSync(config.chain.path, join(workspace, 'screenshots', 'hard.png'));
    const e = await failure(host.call('web.screenshot', { path: 'hard.png' }));
    expect([e.code, e.message]).toEqual(['invalid_params', expect.stringMatching(/hard link/)]);
    expect(readFileSync(config.chain.path, 'utf8').startsWith('{')).toBe(true);
    expect(verifyChain(config.chain.path)).toMatchObject({ ok: true });
  });

  it('web.pdf and web.download_page refuse a tool folder that is a symlink to outside', async () => {
    symlinkSync(outside, join(workspace, 'pdf'));
    symlinkSync(outside, join(workspace, 'pages'));
    const pdf = await failure(host.call('web.pdf', { path: 'x.pdf' }));
    expect([pdf.code, pdf.message]).toEqual(['invalid_params', expect.stringMatching(/folder is a symbolic link/)]);
    const page = await failure(host.call('web.download_page', {}));
    expect([page.code, page.message]).toEqual(['invalid_params', expect.stringMatching(/folder is a symbolic link/)]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a download whose name is taken by a dangling symlink is saved under another name, inside the folder', async () => {
    mkdirSync(join(workspace, 'downloads'), { recursive: true });
    symlinkSync(join(outside, 'report.txt'), join(workspace, 'downloads', 'report.txt'));
    await host.call('web.open', { url: at('/downloads') });
    await host.call('web.click', { selector: '#report' });
    let d: Row | undefined;
    for (let i = 0; i < 100 && !(d && d.state !== 'saving'); i++) {
      const current = ((await host.call('web.status', {})).sessions as Row[]).find((x) => x.current)!;
      d = (current.recent_downloads as Row[])[0];
      if (!d || d.state === 'saving') await new Promise((r) => setTimeout(r, 100));
    }
    expect(d).toMatchObject({ state: 'saved', path: join(workspace, 'downloads', 'report-1.txt') });
    expect(readFileSync(join(workspace, 'downloads', 'report-1.txt'), 'utf8')).toBe('quarterly numbers\n');
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('web.upload and hard links', () => {
  it('refuses a hard link to the chain or to a cache file (same device and inode), and takes an ordinary hard link', async () => {
    await host.call('web.open', { url: at('/upload') });
    mkdirSync(join(workspace, 'docs'), { recursive: true });
    mkdirSync(join(workspace, 'cache', 'cd'), { recursive: true });
    writeFileSync(join(workspace, 'cache', 'cd', 'entry.json'), '{"cached":1}\n');
    linkSync(config.chain.path, join(workspace, 'docs', 'notes.txt'));
    linkSync(join(workspace, 'cache', 'cd', 'entry.json'), join(workspace, 'docs', 'data.json'));
    const chain = await failure(host.call('web.upload', { selector: '#file', files: ['docs/notes.txt'] }));
    expect([chain.code, chain.message]).toEqual(['invalid_params', expect.stringMatching(/hard link to the causal chain/)]);
    const cache = await failure(host.call('web.upload', { selector: '#file', files: ['docs/data.json'] }));
    expect([cache.code, cache.message]).toEqual(['invalid_params', expect.stringMatching(/hard link to the webcap cache/)]);
    writeFileSync(join(workspace, 'docs', 'cv.txt'), 'my cv');
    linkSync(join(workspace, 'docs', 'cv.txt'), join(workspace, 'docs', 'cv-copy.txt'));
    expect(await host.call('web.upload', { selector: '#file', files: ['docs/cv-copy.txt'] })).toMatchObject({ ok: true, files: [{ name: 'cv-copy.txt', bytes: 5 }] });
  });
});
