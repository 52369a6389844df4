// Many callers on one host: plans run at once, library scopes, each on a page
// of its own (a marker in the URL). Every answer must come from the caller's
// own page; a call naming another caller's session is as if it did not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import type { WebcapError } from '../../manifests/errors.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
beforeAll(async () => {
  site = await serve({
    // The page shows its marker; #go writes what was typed, tagged with the page's marker, into #out.
    '/p': (req, res) => {
      const m = new URL(req.url ?? '/', 'http://x').searchParams.get('m') ?? '?';
      send(res, html(`<h1 id="who">${m}</h1><input id="q"><button id="go" onclick="document.querySelector('#out').textContent = document.querySelector('#q').value + '@${m}'">go</button><div id="out"></div>`));
    },
  });
});
afterAll(async () => { await site?.close(); });

const marker = (i: number) => `mk${i}x`;
const pageOf = (i: number) => site.url('site.test', `/p?m=${marker(i)}`);

/** Several rounds of actions without `session`: each answer names the page it came from. */
function planFor(i: number): string {
  const rounds = [1, 2, 3].map((r) => `
    (call :web.fill {:selector "#q" :text "${marker(i)}-r${r}"})
    (call :web.click {:selector "#go"})
    (call :web.wait {:time 30})`).join('');
  return `(do
  (call :web.open {:url "${pageOf(i)}" :timeout 60000})
  ${rounds}
  (let [who (call :web.extract {:selector "#who"})
        out (call :web.extract {:selector "#out"})
        url (call :web.url {})]
    (return [who out url])))`;
}

function othersIn(text: string, mine: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => i).filter((i) => i !== mine && text.includes(marker(i))).map(marker);
}

describe('many callers on one host', { timeout: 300_000 }, () => {
  let host: Host;
  let chainPath: string;
  beforeAll(() => {
    const config = testConfig({ browser: { domains_allowlist: ['site.test'], max_concurrent_sessions: 6, default_timeout_ms: 60_000 }, network: { resolve: { 'site.test': '127.0.0.1' } } });
    chainPath = config.chain.path;
    host = testHost(config);
  });
  afterAll(async () => { await host?.close(); });

  it('6 plans at once: every answer comes from the plan\'s own page, and every plan\'s end is in a chain that verifies', async () => {
    const n = 6;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => host.runPlan(planFor(i)).then((v) => ({ ok: true as const, v }), (e: WebcapError) => ({ ok: false as const, e }))));
    results.forEach((r, i) => {
      expect(r.ok ? '' : `${r.e.code}: ${r.e.message}`).toBe('');
      const [who, out, url] = (r as { v: Array<Record<string, unknown>> }).v;
      expect(JSON.stringify(who)).toContain(marker(i));
      // What was typed last landed in the plan's own page, tagged by that page.
      expect(JSON.stringify(out)).toContain(`${marker(i)}-r3@${marker(i)}`);
      expect(url.url).toBe(pageOf(i));
      expect(othersIn(JSON.stringify(r), i, n)).toEqual([]);
    });
    const entries = readEntries(chainPath);
    const ends = entries.filter((e) => e.kind === 'plan' && (e.result as { event?: string })?.event === 'plan_end');
    expect(ends).toHaveLength(n);
    expect(ends.every((e) => (e.result as { ok?: boolean }).ok === true)).toBe(true);
    // No call of one plan acted in a session another plan opened.
    const sessionOfPlan = new Map<string, string>();
    for (const e of entries) if (e.kind === 'call' && e.capability === 'web.open' && e.plan_id) sessionOfPlan.set(e.plan_id, (e.result as { session: string }).session);
    expect(sessionOfPlan.size).toBe(n);
    const planCalls = entries.filter((x) => x.kind === 'call' && x.plan_id && x.capability !== 'web.open');
    expect(planCalls.length).toBeGreaterThanOrEqual(3 * n); // each plan typed, read and asked its page's URL
    for (const e of planCalls) expect(e.session).toBe(sessionOfPlan.get(e.plan_id!));
    expect(verifyChain(chainPath).ok).toBe(true);
  });

  it('library scopes: each caller\'s calls without session reach its own latest page; another\'s session is not found', async () => {
    const a = host.scope();
    const b = host.scope();
    const sa = (await a.call('web.open', { url: pageOf(20) })).session as string;
    const sb = (await b.call('web.open', { url: pageOf(21) })).session as string;
    // b opened last, but a's call without session stays on a's page.
    expect((await a.call('web.url')).url).toBe(pageOf(20));
    expect((await b.call('web.url')).url).toBe(pageOf(21));
    // The host's default caller opened nothing: it reaches neither.
    await expect(host.call('web.url')).rejects.toMatchObject({ code: 'session_not_found' });
    for (const [caller, theirs] of [[a, sb], [b, sa]] as const) {
      for (const [id, params] of [['web.url', {}], ['web.click', { selector: '#go' }], ['web.close', {}], ['web.cookies.get', {}], ['web.fill', { selector: '#q', text: 'x' }]] as const) {
        await expect(caller.call(id, { ...params, session: theirs })).rejects.toMatchObject({ code: 'session_not_found' });
      }
      // Nor can it open a session under the other's name.
      await expect(caller.call('web.open', { url: pageOf(22), session: theirs })).rejects.toMatchObject({ code: 'session_not_found' });
    }
    // web.status lists only the caller's own sessions.
    const status = await a.call('web.status');
    expect((status.sessions as Array<{ session: string }>).map((s) => s.session)).toEqual([sa]);
    expect(status.current).toBe(sa);
    // Both pages are untouched by the refused attempts.
    expect((await b.call('web.extract', { selector: '#out' })).items).toEqual([expect.objectContaining({ text: '' })]);
    await a.close();
    await b.close();
    expect(host.sessions()).toEqual([]);
  });
});
