// Playwright traces per session ([report] trace) with real Chromium: the zip
// lands in <workspace>/traces through the safe writer, has what Playwright's
// viewer reads (trace.trace, trace.network, resources/), is linked from the
// chain entry that closed the session and from the run report; a session in
// which a password was typed keeps no trace (and says so); on-failure keeps
// only sessions with a failed call; a planted symlink gets nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { collectReport } from '../../host/report/collect.js';
import { renderReport } from '../../host/report/html.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';

const PASSWORD = 'hunter2-Zq9!trace';
let site: FixtureServer;
beforeAll(async () => {
  site = await serve({
    '/': (_q, res) => send(res, html('<h1>Shop</h1><button id="b" onclick="document.body.dataset.x=1">Go</button>')),
    '/login': (_q, res) => send(res, html('<form><input id="user" name="user"><input id="pw" name="pw" type="password"></form>')),
  });
});
afterAll(async () => { await site?.close(); });

function hostWith(trace: string, dir = tempDir('webcap-trace-')) {
  const config = { ...testConfig({ dir, browser: { default_timeout_ms: 30_000 }, network: { resolve: { 'site.test': '127.0.0.1' } } }), report: { trace } };
  return { host: testHost(config as never), dir };
}
const zipEntries = (file: string) => execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
const filesUnder = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);

describe('[report] trace', () => {
  // The two "always" tests share a host: the second looks only at what its own session left.
  let always: ReturnType<typeof hostWith>;
  beforeAll(() => { always = hostWith('always'); });
  afterAll(async () => { await always?.host.close(); });

  it('always: a zip Playwright\'s viewer opens, in the workspace, linked from the closing chain entry and the report', async () => {
    const { host, dir } = always;
    const opened = await host.call('web.open', { url: site.url('site.test', '/') });
    await host.call('web.click', { session: opened.session, selector: '#b' });
    const closed = await host.call('web.close', { session: opened.session });
    const trace = closed.trace as string;
    expect(trace.startsWith(join(dir, 'traces'))).toBe(true);
    const entries = zipEntries(trace);
    expect(entries).toContain('trace.trace');
    expect(entries).toContain('trace.network');
    expect(entries.some((e) => e.startsWith('resources/'))).toBe(true);
    // The viewer's model: JSON lines, with the context and the click in them.
    const events = execFileSync('unzip', ['-p', trace, 'trace.trace'], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l) as { type: string; method?: string; apiName?: string });
    expect(events[0].type).toBe('context-options');
    expect(events.some((e) => e.type === 'before' && /click/i.test(`${e.method ?? ''}${e.apiName ?? ''}`))).toBe(true);

    const chain = readEntries(join(dir, 'chain.jsonl')) as Array<{ kind: string; capability?: string; result?: Record<string, unknown> }>;
    expect(chain.filter((e) => e.kind === 'call' && e.capability === 'web.close').at(-1)?.result?.trace).toBe(trace);
    const report = renderReport(collectReport(join(dir, 'chain.jsonl'), { last: true } as never, dir));
    expect(report).toContain(`npx playwright show-trace ${trace}`);
  });

  it('drops the trace of a session in which a password was typed, says why, and the password is nowhere in the workspace\'s traces', async () => {
    const { host, dir } = always;
    const zipsBefore = filesUnder(join(dir, 'traces')).filter((f) => f.endsWith('.zip'));
    const opened = await host.call('web.open', { url: site.url('site.test', '/login') });
    await host.call('web.type', { session: opened.session, selector: '#pw', text: PASSWORD });
    const closed = await host.call('web.close', { session: opened.session });
    expect(closed.trace).toBeUndefined();
    expect(closed.trace_dropped).toMatch(/password field was typed/);
    expect(filesUnder(join(dir, 'traces')).filter((f) => f.endsWith('.zip'))).toEqual(zipsBefore);
    expect(readFileSync(join(dir, 'chain.jsonl'), 'utf8')).not.toContain(PASSWORD);
  });

  it('on-failure: keeps the trace only of a session in which a call failed', async () => {
    const { host, dir } = hostWith('on-failure');
    try {
      const fine = await host.call('web.open', { url: site.url('site.test', '/') });
      const quiet = await host.call('web.close', { session: fine.session });
      expect(quiet.trace).toBeUndefined();
      const bad = await host.call('web.open', { url: site.url('site.test', '/') });
      await expect(host.call('web.click', { session: bad.session, selector: '#missing', timeout: 1000 })).rejects.toMatchObject({ code: 'selector_not_found' });
      const kept = await host.call('web.close', { session: bad.session });
      expect(zipEntries(kept.trace as string)).toContain('trace.trace');
      expect(filesUnder(join(dir, 'traces')).filter((f) => f.endsWith('.zip'))).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it('writes nothing through a symlink planted as the traces folder', async () => {
    const dir = tempDir('webcap-trace-');
    const elsewhere = tempDir('webcap-elsewhere-');
    mkdirSync(dir, { recursive: true });
    symlinkSync(elsewhere, join(dir, 'traces'));
    const { host } = hostWith('always', dir);
    try {
      const opened = await host.call('web.open', { url: site.url('site.test', '/') });
      const closed = await host.call('web.close', { session: opened.session });
      expect(closed.trace).toBeUndefined();
      expect(closed.trace_dropped).toMatch(/symbolic link/);
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
