// What pages do on their own, through the real stack: dialogs answered by
// policy and reported, web.console since the last read, tabs (list, new,
// switch, close) and popups under the network guard, downloads saved under
// the workspace with executables refused.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { toolsRoutes } from '../fixtures/tools-site.js';
import { failure } from '../helpers/failure.js';

let site: FixtureServer;
let host: Host;        // dialogs = "dismiss" (the default)
let accepting: Host;   // dialogs = "accept"
let workspace: string;
const at = (path: string) => site.url('site.test', path);

type Row = Record<string, unknown>;

/** Polls web.status until `done` holds for the current session (downloads finish after the click returns). */
async function statusUntil(h: Host, done: (s: Row) => boolean): Promise<Row> {
  for (let i = 0; i < 50; i++) {
    const status = await h.call('web.status', {});
    const current = (status.sessions as Row[]).find((s) => s.current)!;
    if (done(current)) return current;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('web.status never showed what was awaited');
}

beforeAll(async () => {
  site = await serve(toolsRoutes(() => site.url('evil.test', '')));
  // evil.test resolves to loopback like site.test: only the allowlist keeps it out.
  const network = { resolve: { 'site.test': '127.0.0.1', 'evil.test': '127.0.0.1' } };
  const config = testConfig({ browser: { domains_allowlist: ['site.test'], max_concurrent_sessions: 30 }, network });
  workspace = config.workspace.path;
  host = testHost(config);
  accepting = testHost(testConfig({ browser: { domains_allowlist: ['site.test'], dialogs: 'accept' }, network }));
});
afterAll(async () => {
  await host?.close();
  await accepting?.close();
  await site?.close();
});

describe('dialogs', () => {
  it('dismisses alert/confirm/prompt by default and reports each in the result of the click that raised it', async () => {
    await host.call('web.open', { url: at('/dialogs') });
    const alert = await host.call('web.click', { selector: '#alert' });
    expect(alert.dialogs).toEqual([expect.objectContaining({ type: 'alert', message: 'hello from alert', action: 'dismissed', tab: 't1', url: at('/dialogs') })]);
    await host.call('web.click', { selector: '#confirm' });
    expect((await host.call('web.extract', { selector: '#result' })).items).toEqual([{ text: 'confirm:false' }]);
    await host.call('web.click', { selector: '#prompt' });
    expect((await host.call('web.extract', { selector: '#result' })).items).toEqual([{ text: 'prompt:null' }]);
    // The same dialogs, once, in web.console; an action without a dialog reports none.
    const read = await host.call('web.console', {});
    expect((read.dialogs as Row[]).map((d) => `${d.type}:${d.action}`)).toEqual(['alert:dismissed', 'confirm:dismissed', 'prompt:dismissed']);
    expect((await host.call('web.console', {})).dialogs).toEqual([]);
    expect((await host.call('web.hover', { selector: '#alert' })).dialogs).toBeUndefined();
  });

  it('with dialogs = "accept", confirm is true and prompt gets its default value', async () => {
    await accepting.call('web.open', { url: at('/dialogs') });
    const r = await accepting.call('web.click', { selector: '#confirm' });
    expect(r.dialogs).toEqual([expect.objectContaining({ type: 'confirm', message: 'Delete everything?', action: 'accepted' })]);
    expect((await accepting.call('web.extract', { selector: '#result' })).items).toEqual([{ text: 'confirm:true' }]);
    const p = await accepting.call('web.click', { selector: '#prompt' });
    expect(p.dialogs).toEqual([expect.objectContaining({ type: 'prompt', action: 'accepted', answer: 'Ada' })]);
    expect((await accepting.call('web.extract', { selector: '#result' })).items).toEqual([{ text: 'prompt:Ada' }]);
  });

  it('beforeunload is accepted even under "dismiss", so leaving a page works, and it is reported', async () => {
    await host.call('web.open', { url: at('/leave') });
    await host.call('web.click', { selector: '#touch' }); // the page needs a user gesture to ask
    const r = await host.call('web.navigate', { url: at('/second') });
    expect(r.title).toBe('Second');
    expect(r.dialogs).toEqual([expect.objectContaining({ type: 'beforeunload', action: 'accepted' })]);
  });
});

describe('web.console', () => {
  it('returns messages and uncaught errors since the last read, per session', async () => {
    const mine = await host.call('web.open', { url: at('/console') });
    await host.call('web.open', { url: at('/console'), session: 'other' });
    const first = await host.call('web.console', { session: mine.session });
    expect((first.messages as Row[]).map((m) => `${m.type}:${m.text}`)).toEqual(['log:first message', 'error:something failed']);
    expect((first.messages as Row[])[0]).toMatchObject({ tab: 't1', url: at('/console') });
    expect((await host.call('web.console', { session: mine.session })).messages).toEqual([]);
    await host.call('web.click', { selector: '#more', session: mine.session });
    await host.call('web.click', { selector: '#throw', session: mine.session });
    await host.call('web.wait', { time: 200, session: mine.session });
    const next = await host.call('web.console', { session: mine.session });
    expect((next.messages as Row[]).map((m) => m.type)).toEqual(['log', 'pageerror']);
    expect((next.messages as Row[])[1].text).toContain('boom in handler');
    // The other session's messages were not consumed by reading this one.
    const other = await host.call('web.console', { session: 'other' });
    expect((other.messages as Row[]).map((m) => m.text)).toEqual(['first message', 'something failed']);
    await host.call('web.close', { session: 'other' });
  });
});

describe('web.tabs', () => {
  it('lists, opens, switches and closes tabs; actions follow the active tab', async () => {
    await host.call('web.open', { url: at('/tabs') });
    expect((await host.call('web.tabs', {})).tabs).toEqual([{ tab: 't1', index: 0, url: at('/tabs'), title: 'Tabs', active: true }]);
    const opened = await host.call('web.tabs', { action: 'new', url: at('/second') });
    expect(opened).toMatchObject({ tab: 't2', title: 'Second', status: 200 });
    expect((opened.tabs as Row[]).map((t) => [t.tab, t.active])).toEqual([['t1', false], ['t2', true]]);
    expect((await host.call('web.url', {})).url).toBe(at('/second'));
    const back = await host.call('web.tabs', { action: 'switch', tab: 't1' });
    expect(back).toMatchObject({ tab: 't1', url: at('/tabs') });
    expect((await host.call('web.extract', { selector: 'h1' })).items).toEqual([{ text: 'Tabs' }]);
    // A target=_blank link opens t3, which becomes active.
    await host.call('web.click', { selector: '#popup' });
    // The popup's 'page' event can land just after the click returns: wait for it to be listed.
    let listed = await host.call('web.tabs', { action: 'list' });
    for (let i = 0; i < 50 && (listed.tabs as Row[]).length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await host.call('web.tabs', { action: 'list' });
    }
    await host.call('web.wait', { selector: 'h1' });
    expect((listed.tabs as Row[]).map((t) => `${t.tab}${t.active ? '*' : ''}`)).toEqual(['t1', 't2', 't3*']);
    const closed = await host.call('web.tabs', { action: 'close' });
    expect(closed).toMatchObject({ closed: 't3' });
    await host.call('web.tabs', { action: 'close', tab: 0 });
    const left = await host.call('web.tabs', {});
    expect(left.tabs).toEqual([expect.objectContaining({ tab: 't2', active: true, url: at('/second') })]);
    const last = await failure(host.call('web.tabs', { action: 'close' }));
    expect(last.code).toBe('invalid_params');
    expect(last.message).toMatch(/last tab; use web.close/);
    expect((await failure(host.call('web.tabs', { action: 'switch', tab: 't9' }))).message).toMatch(/no tab "t9".*t2 \(index 0\)/);
  });

  it('a new tab to a host off the allowlist is refused by the host, and a popup to it by the guard', async () => {
    await host.call('web.open', { url: at('/tabs') });
    const hitsBefore = site.hits.filter((h) => h.startsWith('evil.test')).length;
    const direct = await failure(host.call('web.tabs', { action: 'new', url: site.url('evil.test', '/stolen') }));
    expect(direct.code).toBe('not_allowlisted');
    // window.open from the page: the popup is a tab of the same context, so the same guard stops it.
    await host.call('web.click', { selector: '#evil' });
    const status = await statusUntil(host, (s) => (s.tabs as Row[]).length === 2);
    const popup = (status.tabs as Row[])[1];
    await host.call('web.wait', { time: 300 });
    // Nothing reached the fixture server under that name, and the popup shows no page of it.
    expect(site.hits.filter((h) => h.startsWith('evil.test')).length).toBe(hitsBefore);
    expect(popup.title).not.toBe('Not found');
    // …and the chain says the sidecar's guard refused it.
    const chain = readFileSync(join(workspace, 'chain.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const blocked = chain.filter((e) => e.kind === 'network_blocked');
    expect(JSON.stringify(blocked)).toMatch(/evil\.test \(not_allowlisted\)/);
  });
});

describe('downloads', () => {
  it('saves a download under the workspace downloads folder and reports it', async () => {
    await host.call('web.open', { url: at('/downloads') });
    await host.call('web.click', { selector: '#report' });
    const s = await statusUntil(host, (x) => (x.recent_downloads as Row[]).some((d) => d.state !== 'saving'));
    const d = (s.recent_downloads as Row[])[0];
    expect(d).toMatchObject({ filename: 'report.txt', state: 'saved', path: join(workspace, 'downloads', 'report.txt'), bytes: 18 });
    expect(readFileSync(join(workspace, 'downloads', 'report.txt'), 'utf8')).toBe('quarterly numbers\n');
    const read = await host.call('web.console', {});
    expect((read.downloads as Row[]).map((x) => x.filename)).toEqual(['report.txt']);
  });

  it('refuses executables, by name and by content, and writes nothing', async () => {
    await host.call('web.open', { url: at('/downloads') });
    await host.call('web.click', { selector: '#exe' });
    await host.call('web.click', { selector: '#disguised' });
    const s = await statusUntil(host, (x) => (x.recent_downloads as Row[]).length === 2 && (x.recent_downloads as Row[]).every((d) => d.state !== 'saving'));
    const [exe, disguised] = s.recent_downloads as Row[];
    expect(exe).toMatchObject({ filename: 'setup.exe', state: 'refused' });
    expect(exe.reason).toMatch(/executable file type \.exe/);
    expect(disguised).toMatchObject({ filename: 'notes.txt', state: 'refused' });
    expect(disguised.reason).toMatch(/Windows executable/);
    // Only the earlier test's report.txt is there: no .exe, no notes.txt.
    expect(existsSync(join(workspace, 'downloads')) ? readdirSync(join(workspace, 'downloads')) : []).toEqual(['report.txt']);
  });
});
