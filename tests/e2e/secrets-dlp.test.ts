// A secret only goes home: hostile bank pages try to send the password webcap
// typed by reference to another allowlisted origin (evil.test) in eight ways.
// Each page runs twice in the same test, under a host with [secrets] dlp off
// and one with it on, and the evil server counts the requests carrying the
// value: with the guard off they arrive, with it on none does, and the chain
// names the secret and the origin it was kept from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { setSecret } from '../../host/secrets/vault.js';
import { BANK_PW, carries, serveSecretSite, type SecretSite } from '../fixtures/secret-ref-pages.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

const KEY_ENV = 'WEBCAP_TEST_DLP_KEY';
const WORKER_PW = 'w0rker-Relay!secret';
const COOKIE_PW = 'c00kie Jar@login';
let site: SecretSite;
let dir: string;
const hosts: Record<'off' | 'on', Host | undefined> = { off: undefined, on: undefined };

function configFor(dlp: boolean) {
  const base = testConfig({
    dir: join(dir, dlp ? 'on' : 'off'),
    browser: { domains_allowlist: ['bank.test', 'evil.test', '127.0.0.1', 'login.bank.test', 'evil.bank.test'], default_timeout_ms: 30_000 },
    network: { resolve: { 'bank.test': '127.0.0.1', 'evil.test': '127.0.0.1', 'login.bank.test': '127.0.0.1', 'evil.bank.test': '127.0.0.1' } },
  });
  return { ...base, secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp } };
}

beforeAll(async () => {
  site = await serveSecretSite();
  dir = tempDir('webcap-secrets-dlp-');
  process.env[KEY_ENV] = 'a'.repeat(64);
  setSecret({ secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true } }, { name: 'bank_pw', kind: 'secret', origins: [site.url('bank.test', '')], value: BANK_PW });
  setSecret({ secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true } }, { name: 'login_pw', kind: 'secret', origins: [site.url('login.bank.test', '')], value: COOKIE_PW });
  setSecret({ secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true } }, { name: 'worker_pw', kind: 'secret', origins: [`http://127.0.0.1:${site.port}`], value: WORKER_PW });
  hosts.off = testHost(configFor(false) as never);
  hosts.on = testHost(configFor(true) as never);
}, 60_000);

afterAll(async () => {
  await hosts.off?.close();
  await hosts.on?.close();
  await site?.close();
});

const leaksFrom = (since: number) => site.received.slice(since).filter((r) => r.host === 'evil.test' && carries(r, BANK_PW)).length;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long the guarded run listens after typing: twice what the unguarded leak took to arrive, and at least this. */
const LISTEN_MIN_MS = 500;
const listenFor = (unguardedMs: number) => Math.max(LISTEN_MIN_MS, 2 * unguardedMs);

/**
 * Types the secret by reference on the hostile page (and submits, for the form page); returns how many
 * leaks arrived and how long after typing the first one did. `listenMs` undefined: wait until one
 * arrives (the guard is off, it must); else listen that long.
 */
async function attack(host: Host, path: string, listenMs?: number): Promise<{ leaks: number; tookMs: number }> {
  const since = site.received.length;
  await host.call('web.open', { url: site.url('bank.test', path) });
  const typing = Date.now();
  await host.call('web.fill', { selector: '#pw', text: '{{secret:bank_pw}}' });
  if (path === '/form') await host.call('web.click', { selector: '#go', wait_until: 'load' }).catch(() => undefined);
  if (listenMs === undefined) for (let i = 0; i < 600 && leaksFrom(since) === 0; i++) await sleep(50);
  else await sleep(Math.max(0, typing + listenMs - Date.now()));
  const tookMs = Date.now() - typing;
  await host.call('web.close', {}).catch(() => undefined);
  return { leaks: leaksFrom(since), tookMs };
}

function chainOf(mode: 'on' | 'off') {
  return readFileSync(join(dir, mode, 'chain.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; result?: Record<string, unknown> });
}

describe('a typed secret cannot leave for an origin it is not bound to', () => {
  for (const path of ['/fetch', '/xhr', '/img', '/header', '/form', '/ws', '/beacon', '/nav', '/iframe']) {
    it(`${path}: arrives with the guard off, 0 times with it on`, async () => {
      const off = await attack(hosts.off!, path);
      expect(off.leaks, 'guard off').toBeGreaterThan(0);
      // The same chance to leak, with room: twice as long as the unguarded page needed.
      expect((await attack(hosts.on!, path, listenFor(off.tookMs))).leaks, 'guard on').toBe(0);
    }, 90_000);
  }

  it('/cookie: a cookie set for the parent domain carries it to a sibling subdomain: arrives with the guard off, 0 times with it on', async () => {
    // Off: until the cookie arrives at the sibling (it must). On: twice as long as that took.
    const sent = async (mode: 'off' | 'on', listenMs?: number) => {
      const since = site.received.length;
      const host = hosts[mode]!;
      const evil = () => site.received.slice(since).filter((r) => r.host === 'evil.bank.test');
      const carrying = () => evil().filter((r) => carries(r, COOKIE_PW)).length;
      await host.call('web.open', { url: site.url('login.bank.test', '/cookie') });
      const typing = Date.now();
      await host.call('web.fill', { selector: '#pw', text: '{{secret:login_pw}}' });
      if (listenMs === undefined) for (let i = 0; i < 600 && carrying() === 0; i++) await sleep(50);
      else await sleep(Math.max(0, typing + listenMs - Date.now()));
      const tookMs = Date.now() - typing;
      await host.call('web.close', {});
      return { tried: evil().length, carrying: carrying(), tookMs };
    };
    const off = await sent('off');
    expect(off.carrying, 'guard off').toBeGreaterThan(0);
    const on = await sent('on', listenFor(off.tookMs));
    expect({ tried: on.tried, carrying: on.carrying }, 'guard on').toEqual({ tried: 0, carrying: 0 });
  }, 90_000);

  // Service workers need a secure context, so this page is served from http://127.0.0.1 (http://bank.test is not one).
  it('/sw: the worker relays the secret when a browser allows workers; a session blocks them, so it cannot even register (DLP off or on)', async () => {
    const home = `http://127.0.0.1:${site.port}`;
    const relayed = (since: number) => site.received.slice(since).filter((r) => r.host === 'evil.test' && carries(r, WORKER_PW)).length;
    const reports = (since: number, path: string) => site.received.slice(since).filter((r) => r.host === '127.0.0.1' && r.url.startsWith(path)).length;
    // Control, outside webcap: the same page in a browser that allows workers sends the typed value to evil.test.
    let since = site.received.length;
    const raw = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP evil.test 127.0.0.1`] });
    try {
      const page = await (await raw.newContext({ serviceWorkers: 'allow' })).newPage();
      await page.goto(`${home}/sw`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      await page.fill('#pw', WORKER_PW);
      await expect.poll(() => relayed(since), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => reports(since, '/sw-registered'), { timeout: 30_000 }).toBe(2);
    } finally {
      await raw.close();
    }
    // Through webcap, with the secrets guard off and then on: the worker is refused at registration and nothing arrives.
    for (const mode of ['off', 'on'] as const) {
      since = site.received.length;
      const host = hosts[mode]!;
      await host.call('web.open', { url: `${home}/sw` });
      await expect.poll(() => reports(since, '/sw-refused'), { timeout: 30_000 }).toBe(2);
      await host.call('web.fill', { selector: '#pw', text: '{{secret:worker_pw}}' });
      await new Promise((r) => setTimeout(r, 2000)); // the same chance to relay as the control had
      await host.call('web.close', {});
      expect(reports(since, '/sw-registered'), mode).toBe(0);
      expect(site.received.slice(since).filter((r) => r.url === '/sw.js'), `${mode}: the worker script is never fetched`).toHaveLength(0);
      expect(relayed(since), mode).toBe(0);
    }
  }, 150_000);

  it('the chain names the secret and the origin it was kept from, and never holds the value', () => {
    const blocked = chainOf('on').filter((e) => e.kind === 'event' && e.result?.event === 'secret_blocked');
    expect(blocked.length).toBeGreaterThan(0);
    const kept = (name: string, host: string) => ({ secret: `{{secret:${name}}}`, origin: site.url(host, '').replace(/\/$/, '') });
    for (const e of blocked) expect([kept('bank_pw', 'evil.test'), kept('login_pw', 'evil.bank.test')]).toContainEqual({ secret: e.result!.secret, origin: e.result!.origin });
    expect(blocked.map((e) => e.result!.secret)).toContain('{{secret:bank_pw}}');
    for (const mode of ['on', 'off'] as const) {
      const text = readFileSync(join(dir, mode, 'chain.jsonl'), 'utf8');
      expect(carries({ host: '', url: '', headers: '', body: text }, BANK_PW), `chain ${mode}`).toBe(false);
      expect(text).toContain('{{secret:bank_pw}}');
    }
  });

  it('the secret still goes home: the bank gets it when the plain form is submitted', async () => {
    const since = site.received.length;
    await hosts.on!.call('web.open', { url: site.url('bank.test', '/plain') });
    await hosts.on!.call('web.fill', { selector: '#pw', text: '{{secret:bank_pw}}' });
    await hosts.on!.call('web.click', { selector: '#go', wait_until: 'load' });
    const home = site.received.slice(since).filter((r) => r.host === 'bank.test' && r.url === '/login');
    expect(home).toHaveLength(1);
    expect(carries(home[0], BANK_PW)).toBe(true);
    await hosts.on!.call('web.close', {});
  }, 90_000);
});
