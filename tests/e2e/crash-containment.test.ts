// A crashed browser costs only what it was running: kill -9 of Chromium, then
// of the sidecar, while plans are in flight and more wait for a session slot.
// The plans in flight fail with the crash code (not a timeout, not internal),
// their slots go to the waiting plans at once, and the chain records the crash
// and every plan's end, and verifies.
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import type { WebcapError } from '../../manifests/errors.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { chromiumOf, sidecarOf } from '../helpers/processes.js';

let site: FixtureServer;
beforeAll(async () => {
  site = await serve({
    '/p': (req, res) => {
      const m = new URL(req.url ?? '/', 'http://x').searchParams.get('m') ?? '?';
      send(res, html(`<h1 id="who">${m}</h1>`));
    },
  });
});
afterAll(async () => { await site?.close(); });

const pageOf = (m: string) => site.url('site.test', `/p?m=${m}`);
// Waits on an element that never comes, far longer than the test: only the crash can end it.
const stuckPlan = (m: string) => `(do (call :web.open {:url "${pageOf(m)}" :timeout 120000}) (call :web.wait {:selector "#never" :timeout 120000}) (return 1))`;
const quickPlan = (m: string) => `(do (call :web.open {:url "${pageOf(m)}" :timeout 120000}) (let [r (call :web.extract {:selector "#who"})] (return (get (first (get r :items)) :text))))`;

type Outcome = { ok: true; v: unknown } | { ok: false; code: string; message: string };
const settle = (p: Promise<unknown>): Promise<Outcome> => p.then((v) => ({ ok: true as const, v }), (e: WebcapError) => ({ ok: false as const, code: e.code, message: e.message }));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 1200) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('crash containment (3 slots, session_queue = "wait")', { timeout: 300_000 }, () => {
  let host: Host;
  let chainPath: string;
  const make = () => {
    const config = testConfig({ browser: { domains_allowlist: ['site.test'], max_concurrent_sessions: 3, session_queue: 'wait', default_timeout_ms: 120_000 }, network: { resolve: { 'site.test': '127.0.0.1' } } });
    chainPath = config.chain.path;
    host = testHost(config);
  };
  afterEach(async () => { await host?.close(); });

  it('Chromium killed (-9): the 3 plans in it fail with browser_crashed, the 3 waiting for a slot get one and return in full', async () => {
    make();
    const stuck = ['a', 'b', 'c'].map((m) => settle(host.runPlan(stuckPlan(m))));
    await until(() => host.sessions().length === 3, 'three sessions open');
    const waiting = ['d', 'e', 'f'].map((m) => settle(host.runPlan(quickPlan(m))));
    await new Promise((r) => setTimeout(r, 500)); // the three are in line for a slot
    const sidecar = sidecarOf()!;
    const chromium = chromiumOf(sidecar.pid)!;
    expect(chromium).toBeDefined();
    process.kill(chromium.pid, 'SIGKILL');

    const failed = await Promise.all(stuck);
    expect(failed.map((o) => (o.ok ? 'ok' : o.code))).toEqual(['browser_crashed', 'browser_crashed', 'browser_crashed']);
    expect((await Promise.all(waiting)).map((o) => (o.ok ? o.v : `${o.code}: ${o.message}`))).toEqual(['d', 'e', 'f']);
    // The sidecar survived; a plan started afterwards succeeds too.
    expect(sidecarOf()?.pid).toBe(sidecar.pid);
    expect(await host.runPlan(quickPlan('g'))).toBe('g');

    const entries = readEntries(chainPath);
    expect(entries.filter((e) => e.kind === 'event' && (e.result as { event?: string }).event === 'browser_crashed')).toHaveLength(1);
    const ends = entries.filter((e) => e.kind === 'plan');
    expect(ends.map((e) => e.error?.code ?? 'ok').sort()).toEqual(['browser_crashed', 'browser_crashed', 'browser_crashed', 'ok', 'ok', 'ok', 'ok']);
    expect(verifyChain(chainPath).ok).toBe(true);
  });

  it('sidecar killed (-9): its plans in flight fail with sidecar_crashed, the next plans start a new one and succeed', async () => {
    make();
    const stuck = ['a', 'b', 'c'].map((m) => settle(host.runPlan(stuckPlan(m))));
    // In flight means inside web.wait, not between the open and the wait (a plan there meets its lost
    // session on its next call, browser_crashed): the waits' intents are on disk just before they are sent.
    await until(() => existsSync(chainPath) && readEntries(chainPath).filter((e) => e.kind === 'intent' && e.capability === 'web.wait').length === 3, 'three waits under way');
    await new Promise((r) => setTimeout(r, 1000));
    const sidecar = sidecarOf()!;
    process.kill(sidecar.pid, 'SIGKILL');
    const failed = await Promise.all(stuck);
    expect(failed.map((o) => (o.ok ? 'ok' : o.code))).toEqual(['sidecar_crashed', 'sidecar_crashed', 'sidecar_crashed']);
    expect(host.sessions()).toEqual([]);

    const after = await Promise.all(['d', 'e', 'f', 'g'].map((m) => settle(host.runPlan(quickPlan(m)))));
    expect(after.map((o) => (o.ok ? o.v : `${o.code}: ${o.message}`))).toEqual(['d', 'e', 'f', 'g']);
    expect(sidecarOf()?.pid).not.toBe(sidecar.pid);

    const entries = readEntries(chainPath);
    expect(entries.filter((e) => e.kind === 'event' && (e.result as { event?: string }).event === 'sidecar_crashed')).toHaveLength(1);
    expect(entries.filter((e) => e.kind === 'plan').map((e) => e.error?.code ?? 'ok').sort()).toEqual(['ok', 'ok', 'ok', 'ok', 'sidecar_crashed', 'sidecar_crashed', 'sidecar_crashed']);
    expect(verifyChain(chainPath).ok).toBe(true);
  });

  it('a caller idle at the crash learns of it on its next call (browser_crashed, not session_not_found), then opens anew', async () => {
    make();
    const idle = host.scope();
    const s = (await idle.call('web.open', { url: pageOf('idle') })).session as string;
    process.kill(chromiumOf(sidecarOf()!.pid)!.pid, 'SIGKILL');
    await until(() => idle.sessions().length === 0, 'the crash reported');
    await expect(idle.call('web.url')).rejects.toMatchObject({ code: 'browser_crashed' });
    await expect(idle.call('web.url', { session: s })).rejects.toMatchObject({ code: 'browser_crashed' });
    // Another caller never had a session: for it nothing crashed.
    await expect(host.scope().call('web.url')).rejects.toMatchObject({ code: 'session_not_found' });
    await idle.call('web.open', { url: pageOf('again') });
    expect((await idle.call('web.url')).url).toBe(pageOf('again'));
  });
});
