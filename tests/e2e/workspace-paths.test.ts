// The workspace holds webcap's own files (the causal chain, the log, the cache)
// beside the tools' output folders. A tool writes only inside its own folder,
// with the ending its format needs, and web.upload never hands webcap's own
// files to a page. Real stack: host → sidecar → Chromium → loopback site.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentQuestion } from '../../host/consent/asker.js';
import type { Host } from '../../host/host.js';
import { verifyChain } from '../../host/chain/verify.js';
import { toolsRoutes } from '../fixtures/tools-site.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { failure } from '../helpers/failure.js';

let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;
let workspace: string;
const asked: ConsentQuestion[] = [];
const CACHE_ENTRY = join('cache', 'ab', 'abcdef.json');
const CACHE_TEXT = '{"cached":"entry"}\n';
const at = (path: string) => site.url('site.test', path);

/** The chain still verifies, and the log and cache entry are not images, PDFs or pages. */
function ownFilesIntact(): void {
  const verified = verifyChain(config.chain.path);
  expect(verified).toMatchObject({ ok: true });
  expect(readFileSync(config.chain.path, 'utf8').startsWith('{')).toBe(true);
  expect(readFileSync(config.logging.file).subarray(0, 8).toString('latin1')).not.toMatch(/PNG|%PDF|<html|\xff\xd8/i);
  expect(readFileSync(join(workspace, CACHE_ENTRY), 'utf8')).toBe(CACHE_TEXT);
}

beforeAll(async () => {
  site = await serve(toolsRoutes(() => site.url('evil.test', '')));
  config = testConfig({ browser: { domains_allowlist: ['site.test'] }, network: { resolve: { 'site.test': '127.0.0.1' } } });
  workspace = config.workspace.path;
  mkdirSync(join(workspace, 'cache', 'ab'), { recursive: true });
  writeFileSync(join(workspace, CACHE_ENTRY), CACHE_TEXT);
  host = testHost(config, { ask: async (q) => { asked.push(q); return true; } });
  await host.call('web.open', { url: at('/article') });
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe('output paths stay inside each tool\'s own folder', () => {
  const ownFiles = () => ['../chain.jsonl', '../webcap.log', `../${CACHE_ENTRY}`, config.chain.path, join(workspace, 'webcap.log')];

  it('web.screenshot refuses the chain, the log, the cache and other folders, and endings that are not its format', async () => {
    for (const path of [...ownFiles(), '../pdf/x.png', '../x.png', '.']) {
      const e = await failure(host.call('web.screenshot', { path }));
      expect([path, e.code]).toEqual([path, 'invalid_params']);
      expect(e.message).toContain(join(workspace, 'screenshots'));
    }
    for (const [path, format] of [['x.gif', undefined], ['x.jpg', 'png'], ['x.png', 'jpeg'], ['x.json', undefined]] as const) {
      const e = await failure(host.call('web.screenshot', { path, ...(format ? { format } : {}) }));
      expect([path, e.code]).toEqual([path, 'invalid_params']);
      expect(e.message).toMatch(/must end in \.(png|jpg)/);
    }
    ownFilesIntact();
  });

  it('a symlink planted in the screenshots folder cannot redirect a screenshot onto the chain', async () => {
    mkdirSync(join(workspace, 'screenshots'), { recursive: true });
    symlinkSync(config.chain.path, join(workspace, 'screenshots', 'link.png'));
    expect((await failure(host.call('web.screenshot', { path: 'link.png' }))).code).toBe('invalid_params');
    ownFilesIntact();
  });

  it('web.pdf and web.download_page refuse the same paths', async () => {
    for (const path of [...ownFiles(), '../chain.pdf', '../screenshots/x.pdf']) {
      expect([path, (await failure(host.call('web.pdf', { path }))).code]).toEqual([path, 'invalid_params']);
    }
    for (const path of [...ownFiles(), '../cache/ab/abcdef.html', '../x.html', 'page.json']) {
      expect([path, (await failure(host.call('web.download_page', { path }))).code]).toEqual([path, 'invalid_params']);
    }
    ownFilesIntact();
  });

  it('paths inside the tool\'s folder still work, sub-folders and matching endings included', async () => {
    expect((await host.call('web.screenshot', { path: 'sub/shot.jpg' }))).toMatchObject({ path: join(workspace, 'screenshots', 'sub', 'shot.jpg'), format: 'jpeg' });
    expect((await host.call('web.screenshot', { path: 'plain' })).path).toBe(join(workspace, 'screenshots', 'plain.png'));
    expect((await host.call('web.screenshot', { path: join(workspace, 'screenshots', 'abs.png') })).path).toBe(join(workspace, 'screenshots', 'abs.png'));
    expect((await host.call('web.pdf', { path: 'a/b.pdf' })).path).toBe(join(workspace, 'pdf', 'a', 'b.pdf'));
    expect((await host.call('web.download_page', { path: 'p.htm' })).html_path).toBe(join(workspace, 'pages', 'p.htm'));
    ownFilesIntact();
  });
});

describe('web.upload never sends webcap\'s own files', () => {
  it('refuses the chain, the log, a cache entry and a link to the chain, before asking anyone', async () => {
    await host.call('web.open', { url: at('/upload') });
    mkdirSync(join(workspace, 'docs'), { recursive: true });
    symlinkSync(config.chain.path, join(workspace, 'docs', 'notes.txt'));
    asked.length = 0;
    const refusals: Array<[string, RegExp]> = [
      ['chain.jsonl', /causal chain/], [config.chain.path, /causal chain/], ['webcap.log', /webcap log/],
      [CACHE_ENTRY, /webcap cache/], ['docs/notes.txt', /causal chain/],
    ];
    for (const [file, why] of refusals) {
      const e = await failure(host.call('web.upload', { selector: '#file', files: [file] }));
      expect([file, e.code]).toEqual([file, 'invalid_params']);
      expect(e.message).toMatch(why);
    }
    expect(asked).toEqual([]);
    writeFileSync(join(workspace, 'docs', 'cv.txt'), 'my cv');
    expect(await host.call('web.upload', { selector: '#file', files: ['docs/cv.txt'] })).toMatchObject({ ok: true, files: [{ name: 'cv.txt', bytes: 5 }] });
    ownFilesIntact();
  });
});
