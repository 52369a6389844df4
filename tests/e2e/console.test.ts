// The console as a person uses it: a real browser (Playwright) opens the URL
// the host printed, reads the pending question and presses Approve or Deny.
// The fixture server counts what arrived: approve → the POST once, deny → 0.
import { mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import { projectRoot } from '../../manifests/load.js';
import { effectRoutes, type Arrival } from '../fixtures/effect-pages.js';
import { failure } from '../helpers/failure.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

let site: FixtureServer;
let person: Browser;
const arrivals: Arrival[] = [];
const posted = (name: string) => arrivals.filter((a) => a.path === `/sink/${name}`);

beforeAll(async () => {
  site = await serve(effectRoutes(arrivals));
  person = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await shared?.host.close();
  await person?.close();
  await site?.close();
});

// Nobody can be asked on a terminal or a form ([consent] non_interactive = "deny", no TTY): only the console can reach a person.
const configParts = () => ({ network: { resolve: { 'shop.test': '127.0.0.1', 'console.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] } });
const config = () => testConfig({ ...configParts(), consent: { non_interactive: 'deny' } });

async function denyAll(url: string): Promise<void> {
  const state = await (await fetch(url.replace('/?', '/state?'))).json() as { questions: Array<{ id: string }> };
  for (const q of state.questions) {
    await fetch(url.replace('/?', '/answer?'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: q.id, decision: 'deny' }) });
  }
}

// "Approving and denying" and "the console is a boundary" share one host: each test denies what it
// left pending, nothing approved is remembered (approval_ttl_s = 0), and there are slots for the
// sessions they leave open. The live view keeps its own (it names the host's first session).
const sharedConfig = () => testConfig({ ...configParts(), consent: { non_interactive: 'deny', approval_ttl_s: 0 }, browser: { max_concurrent_sessions: 10 } });
let shared: { host: Host; cfg: ReturnType<typeof sharedConfig> } | undefined;
const sharedConsole = async () => {
  if (!shared) { const cfg = sharedConfig(); shared = { host: testHost(cfg), cfg }; }
  return { ...shared, url: (await shared.host.console()).url };
};

async function consolePage(url: string): Promise<Page> {
  const page = await person.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  return page;
}

describe('approving and denying from the console', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  let url: string;
  beforeAll(async () => { ({ host, cfg, url } = await sharedConsole()); });
  // A failed test must not leave its question blocking the next one's.
  afterEach(async () => { await denyAll(url); });

  it('Approve: the question shows the page and what would leave; the server receives the POST once', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/p/space-on-submit') });
    const page = await consolePage(url);
    const click = host.call('web.click', { selector: '#go' });
    const question = page.getByRole('region', { name: /Allow web\.click to submit a form/ });
    await question.waitFor();
    const picture = question.getByRole('img');
    await picture.waitFor();
    expect(await picture.getAttribute('alt')).toMatch(/^Page "fixture" .*at the moment of asking, button go "Send" outlined/);
    const text = await question.textContent();
    expect(text).toContain('/sink/space-on-submit');
    expect(text).toMatch(/MethodPOST/);
    expect(text).toMatch(/Fieldsx/);
    expect(text).toMatch(/Asked by\s*library/);
    mkdirSync(join(projectRoot(), 'docs'), { recursive: true });
    await page.screenshot({ path: join(projectRoot(), 'docs', 'console.png') });
    await question.getByRole('button', { name: 'Approve', exact: true }).click();
    await click;
    await sleep(200);
    expect(posted('space-on-submit')).toHaveLength(1);
    await question.waitFor({ state: 'detached' });
    const consent = readEntries(cfg.chain.path).filter((e) => e.kind === 'consent').at(-1)!;
    expect(consent.decision).toMatchObject({ decision: 'approved', details: { channel: 'console' } });
    await page.close();
  });

  it('Deny: consent_denied and the server receives nothing', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/p/xhr-delete') });
    const page = await consolePage(url);
    const click = failure(host.call('web.click', { selector: '#go' }));
    const question = page.getByRole('region', { name: /Allow web\.click/ });
    await question.getByRole('button', { name: 'Deny', exact: true }).click();
    expect((await click).code).toBe('consent_denied');
    await sleep(200);
    expect(posted('xhr-delete')).toEqual([]);
    expect(verifyChain(cfg.chain.path).ok).toBe(true);
    await page.close();
  });
});

/** A raw request (Host and Origin as given: fetch may not set Host). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('live view', () => {
  let host: Host;
  let url: string;
  beforeAll(async () => { host = testHost(config()); url = (await host.console()).url; });
  afterAll(async () => { await host?.close(); });

  it('shows each session with its title, URL and a live view (frames while someone watches)', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/p/spa-login') });
    const page = await consolePage(url);
    const session = page.getByRole('listitem', { name: 'Session s1' });
    await session.getByText(site.url('shop.test', '/p/spa-login')).waitFor();
    const live = session.getByRole('application', { name: 'Live view of fixture' });
    await live.waitFor();
    // A frame replaces the last as it arrives (naturalWidth is 0 while one loads): poll until a whole one is shown.
    await expect.poll(() => live.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(100);
    await page.close();
  });
});

describe('the console is a boundary', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  let url: string;
  beforeAll(async () => { ({ host, cfg, url } = await sharedConsole()); });
  afterEach(async () => { await denyAll(url); });

  const json = { 'content-type': 'application/json' };
  const bare = () => { const u = new URL(url); u.searchParams.delete('token'); return u; };

  it('without the token, with a wrong one, a foreign Host or a foreign Origin: refused, and the question is still pending', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/p/space-on-submit') });
    const before = posted('space-on-submit').length;
    const click = host.call('web.click', { selector: '#go' }).then(() => 'done', (e: { code?: string }) => e.code);
    let id = '';
    while (!id) { await sleep(100); id = ((await (await fetch(url.replace('/?', '/state?'))).json()) as { questions: Array<{ id: string }> }).questions[0]?.id ?? ''; }
    const answer = JSON.stringify({ id, decision: 'approve' });
    const u = bare();
    const token = new URL(url).searchParams.get('token')!;
    expect((await raw(`${u.origin}/state`)).status).toBe(401);
    expect((await raw(`${u.origin}/answer`, { method: 'POST', headers: json, body: answer })).status).toBe(401);
    expect((await raw(`${u.origin}/answer?token=wrong${token}`, { method: 'POST', headers: json, body: answer })).status).toBe(403);
    expect((await raw(`${u.origin}/answer?token=${token}`, { method: 'POST', headers: { ...json, host: `evil.example:${u.port}` }, body: answer })).status).toBe(403);
    expect((await raw(`${u.origin}/answer?token=${token}`, { method: 'POST', headers: { ...json, origin: 'http://evil.example' }, body: answer })).status).toBe(403);
    expect((await raw(`${u.origin}/?token=${token}`, { headers: { host: `rebound.example:${u.port}` } })).status).toBe(403);
    await sleep(300);
    expect(posted('space-on-submit')).toHaveLength(before);
    // A forged id changes nothing; the real one is answered once, and a second answer is refused.
    expect((await raw(`${u.origin}/answer?token=${token}`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'f'.repeat(32), decision: 'approve' }) })).status).toBe(409);
    expect((await raw(`${u.origin}/answer?token=${token}`, { method: 'POST', headers: { ...json, origin: u.origin }, body: JSON.stringify({ id, decision: 'deny' }) })).status).toBe(200);
    expect((await raw(`${u.origin}/answer?token=${token}`, { method: 'POST', headers: json, body: answer })).status).toBe(409);
    expect(await click).toBe('consent_denied');
    await sleep(200);
    expect(posted('space-on-submit')).toHaveLength(before);
  });

  it('serves a strict CSP and no inline script', async () => {
    const page = await raw(url);
    expect(page.status).toBe(200);
    expect(page.body).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>[^<]/);
    const res = await fetch(url);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('a governed browser cannot reach the console, whatever allow_private says', async () => {
    // console.test resolves to the console's loopback address, which allow_private lets through for every other port.
    const e = await failure(host.call('web.open', { url: `http://console.test:${bare().port}/?token=${new URL(url).searchParams.get('token')}` }));
    expect(e.code).toBe('ssrf_blocked');
    expect(e.message).toMatch(/console/);
  });
});

describe('Stop', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  let url: string;
  beforeAll(async () => { cfg = testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] }, consent: { non_interactive: 'approve' } }); host = testHost(cfg); url = (await host.console()).url; });
  afterAll(async () => { await host?.close(); });

  it('the Stop button interrupts the running plan: interrupted in the chain, no request after it', async () => {
    const plan = `(do
  (call :web.open {:url "${site.url('shop.test', '/p/spa-login')}"})
  (call :web.wait {:time 15000})
  (call :web.click {:selector "#go"}))`;
    const run = host.runPlan(plan).then(() => 'finished', (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`);
    const page = await consolePage(url);
    const session = page.getByRole('listitem', { name: /^Session / }).filter({ hasText: 'running web.wait' });
    await session.waitFor();
    await session.getByRole('button', { name: 'Stop', exact: true }).click();
    expect(await run).toMatch(/^consent_denied: (plan:\d+:\d+: )?interrupted: the person pressed Stop/);
    await sleep(500);
    expect(posted('spa-login')).toEqual([]);
    const entries = readEntries(cfg.chain.path);
    const stop = entries.findIndex((e) => e.kind === 'event' && (e.result as { event?: string })?.event === 'interrupted');
    expect(stop).toBeGreaterThan(0);
    expect(entries.slice(stop).some((e) => e.capability === 'web.click' && e.kind === 'intent')).toBe(false);
    await page.close();
  });
});
