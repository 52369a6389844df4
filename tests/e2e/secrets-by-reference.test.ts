// Credentials by reference, as a plan or an agent uses them: `{{secret:NAME}}`
// and `{{totp:NAME}}` in what a call types. The value is typed only into a
// frame of an origin the secret is bound to (port included), after the user
// said yes once for that origin; every answer shows the reference, never the
// value; the chain records the reference, never the value or its length.
import * as OTPAuth from 'otpauth';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentQuestion } from '../../host/consent/asker.js';
import type { Host } from '../../host/host.js';
import { setSecret } from '../../host/secrets/vault.js';
import { WebcapError } from '../../manifests/errors.js';
import { BANK_PW, carries, serveSecretSite, type SecretSite } from '../fixtures/secret-ref-pages.js';
import { failure as failureOf } from '../helpers/failure.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

const KEY_ENV = 'WEBCAP_TEST_REF_KEY';
const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
let site: SecretSite;
let elsewhere: SecretSite;   // the same host name on another port: another origin
let dir: string;
let host: Host;
const questions: ConsentQuestion[] = [];
let sayNoTo: string | undefined;
const answers: unknown[] = [];

async function call(id: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await host.call(id, params);
  answers.push(r);
  return r;
}

async function failure(id: string, params: Record<string, unknown>): Promise<WebcapError> {
  const err = await failureOf(host.call(id, params));
  answers.push(err.toJSON());
  return err;
}

/** The centre pixel of a PNG, read by a real browser's canvas. */
async function centrePixel(png: Buffer): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    return await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width; c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      return [...g.getImageData(Math.floor(img.width / 2), Math.floor(img.height / 2), 1, 1).data.slice(0, 3)];
    }, `data:image/png;base64,${png.toString('base64')}`);
  } finally {
    await browser.close();
  }
}

const pwValue = async () => (await call('web.evaluate', { expression: "document.getElementById('pw').value" })).result;
const secretQuestions = () => questions.filter((q) => q.reason === 'secret_use');

beforeAll(async () => {
  site = await serveSecretSite();
  elsewhere = await serveSecretSite();
  dir = tempDir('webcap-secrets-ref-');
  process.env[KEY_ENV] = 'b'.repeat(64);
  const secrets = { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true };
  setSecret({ secrets }, { name: 'bank_pw', kind: 'secret', origins: [site.url('bank.test', '')], value: BANK_PW });
  setSecret({ secrets }, { name: 'bank_otp', kind: 'totp', origins: [site.url('bank.test', '')], value: SEED });
  const base = testConfig({
    dir,
    browser: { domains_allowlist: ['bank.test', 'evil.test'], evaluate_enabled: true },
    network: { resolve: { 'bank.test': '127.0.0.1', 'evil.test': '127.0.0.1' } },
  });
  host = testHost({ ...base, secrets } as never, {
    ask: async (q) => {
      questions.push(q);
      return !(q.reason === 'secret_use' && sayNoTo && q.origin === sayNoTo);
    },
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
  await site?.close();
  await elsewhere?.close();
});

describe('{{secret:NAME}} on its own origin', () => {
  it('is typed after one question for the origin, and every answer shows the reference', async () => {
    await call('web.open', { url: site.url('bank.test', '/copy') });
    const filled = await call('web.fill', { selector: '#pw', text: '{{secret:bank_pw}}' });
    expect(filled.ok).toBe(true);
    expect(secretQuestions()).toHaveLength(1);
    expect(secretQuestions()[0].origin).toBe(site.url('bank.test', '').replace(/\/$/, ''));
    // The page copied the value into text, an attribute and its title: each answer shows the reference.
    expect(await pwValue()).toBe('{{secret:bank_pw}}');
    // The page's own copy runs after the keys land: wait for it (a busy machine may be slower than the call's answer).
    await expect.poll(async () => (await call('web.evaluate', { expression: "document.getElementById('copy').title" })).result, { timeout: 30_000 }).toBe('{{secret:bank_pw}}');
    const snap = JSON.stringify(await call('web.snapshot', {}));
    expect(snap).toContain('{{secret:bank_pw}}');
    expect(JSON.stringify(await call('web.page_content', {}))).toContain('"title":"Bank {{secret:bank_pw}}"');
    const html = JSON.stringify(await call('web.page_content', { format: 'full_html' }));
    expect(html).toContain('you typed {{secret:bank_pw}}');
    expect(html).toContain('title=\\"{{secret:bank_pw}}\\"');
    expect(JSON.stringify(await call('web.extract', { selector: '#copy' }))).toContain('{{secret:bank_pw}}');
    await call('web.query_elements', { query: 'field' });
    // The element the page copied the value into is painted over (Playwright's mask colour, #FF00FF).
    const shot = await call('web.screenshot', { selector: '#copy' });
    expect(await centrePixel(readFileSync(shot.path as string))).toEqual([255, 0, 255]);
    // Used again on the same origin: no second question.
    await call('web.fill', { selector: '#pw', text: '{{secret:bank_pw}}' });
    expect(secretQuestions()).toHaveLength(1);
    await call('web.close', {});
  }, 120_000);

  it('goes home when the form is sent: web.type, web.keypress and web.fill_form resolve it too', async () => {
    const since = site.received.length;
    await call('web.open', { url: site.url('bank.test', '/plain') });
    await call('web.type', { selector: '#user', text: '{{secret:bank_pw}}' });
    await call('web.keypress', { selector: '#user', keys: ['End', '{{secret:bank_pw}}'] });
    expect((await call('web.evaluate', { expression: "document.getElementById('user').value" })).result).toBe('{{secret:bank_pw}}{{secret:bank_pw}}');
    // A text field holding it (its value is shown to the agent for ordinary fields) shows the references.
    expect(JSON.stringify(await call('web.query_elements', { query: 'user' }))).toContain('"value":"{{secret:bank_pw}}{{secret:bank_pw}}"');
    await call('web.fill_form', { fields: { pw: '{{secret:bank_pw}}' }, submit: true });
    const sent = site.received.slice(since).find((r) => r.url === '/login')!;
    expect(new URLSearchParams(sent.body).get('pw')).toBe(BANK_PW);
    expect(new URLSearchParams(sent.body).get('user')).toBe(BANK_PW + BANK_PW);
    await call('web.close', {});
  }, 120_000);

  it('works from a plan: the plan text names the secret, the bank gets the value', async () => {
    const since = site.received.length;
    const result = await host.runPlan(`(do
  (call :web.open {:url "${site.url('bank.test', '/plain')}"})
  (call :web.fill {:selector "#pw" :text "{{secret:bank_pw}}"})
  (call :web.click {:selector "#go" :wait_until "load"})
  (let [pw (call :web.evaluate {:expression "document.title"})] (return (get pw :result))))`);
    answers.push(result);
    expect(result).toBe('Welcome');
    const sent = site.received.slice(since).find((r) => r.url === '/login')!;
    expect(new URLSearchParams(sent.body).get('pw')).toBe(BANK_PW);
  }, 120_000);

  it('{{totp:NAME}} types the RFC 6238 code of this moment', async () => {
    const since = site.received.length;
    await call('web.open', { url: site.url('bank.test', '/plain') });
    const filled = await call('web.fill', { selector: '#user', text: '{{totp:bank_otp}}' });
    expect(filled.value).toBe('{{totp:bank_otp}}');
    await call('web.click', { selector: '#go', wait_until: 'load' });
    const code = new URLSearchParams(site.received.slice(since).find((r) => r.url === '/login')!.body).get('user')!;
    expect(code).toMatch(/^\d{6}$/);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(SEED) });
    expect(totp.validate({ token: code, window: 1 })).not.toBeNull();
    await call('web.close', {});
  }, 120_000);
});

describe('{{secret:NAME}} anywhere else', () => {
  it('another port of the same host is another origin: consent_denied (secret_origin), nothing typed', async () => {
    await call('web.open', { url: elsewhere.url('bank.test', '/plain') });
    const err = await failure('web.fill', { selector: '#pw', text: '{{secret:bank_pw}}' });
    expect(err.code).toBe('consent_denied');
    expect(err.details.reason).toBe('secret_origin');
    expect(err.message).toContain('not for this site');
    expect(await pwValue()).toBe('');
    await call('web.close', {});
  }, 120_000);

  it('keys that land in a cross-origin iframe (focus moved there) type nothing', async () => {
    await call('web.open', { url: site.url('bank.test', '/iframe') });
    await call('web.click', { selector: 'iframe#spy' }); // the spy frame's field covers it: focus is on evil.test now
    const err = await failure('web.keypress', { keys: ['{{secret:bank_pw}}'] });
    expect(err.code).toBe('consent_denied');
    expect(err.details.reason).toBe('secret_origin');
    expect(err.details.origin).toBe(site.url('evil.test', '').replace(/\/$/, ''));
    await call('web.close', {});
  }, 120_000);

  it('a "no" from the user types nothing', async () => {
    sayNoTo = site.url('bank.test', '').replace(/\/$/, '');
    // A fresh approval is needed: ask under another secret name bound to the same origin.
    setSecret({ secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true } }, { name: 'bank_pin', kind: 'secret', origins: [sayNoTo], value: 'P1n-0042' });
    await call('web.open', { url: site.url('bank.test', '/plain') });
    const err = await failure('web.fill', { selector: '#pw', text: '{{secret:bank_pin}}' });
    sayNoTo = undefined;
    expect(err.code).toBe('consent_denied');
    expect(err.details.reason).toBe('secret_use');
    expect(await pwValue()).toBe('');
    await call('web.close', {});
  }, 120_000);

  it('a missing secret says which one and how to set it, before anything runs', async () => {
    await call('web.open', { url: site.url('bank.test', '/plain') });
    const err = await failure('web.fill', { selector: '#pw', text: '{{secret:nope}}' });
    expect(err.code).toBe('invalid_params');
    expect(err.message).toContain('secret "nope" is not in the vault');
    // The command names the page's origin: no client here can send the person to the console's entry page.
    expect(err.message).toContain(`webcap secrets set nope --origin ${site.url('bank.test', '').replace(/\/$/, '')}`);
    expect(err.details.missing).toMatchObject({ name: 'nope' });
    expect(err.details.vault_name).toBe('nope');
    await call('web.close', {});
  }, 120_000);
});

describe('what the agent and the chain see', () => {
  it('no answer and no chain entry holds the value, in any encoding, or its length', () => {
    for (const a of answers) expect(carries({ host: '', url: '', headers: '', body: JSON.stringify(a) }, BANK_PW), JSON.stringify(a).slice(0, 200)).toBe(false);
    const chain = readFileSync(join(dir, 'chain.jsonl'), 'utf8');
    expect(carries({ host: '', url: '', headers: '', body: chain }, BANK_PW)).toBe(false);
    expect(chain).not.toContain('P1n-0042');
    const entries = chain.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; capability?: string; params?: Record<string, unknown>; result?: Record<string, unknown> });
    const fills = entries.filter((e) => e.kind === 'call' && e.capability === 'web.fill' && e.params?.selector === '#pw');
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) expect(['{{secret:bank_pw}}', '{{secret:bank_pin}}', '{{secret:nope}}']).toContain(f.params!.text);
    expect(entries.find((e) => e.kind === 'call' && e.capability === 'web.keypress')!.params!.keys).toEqual(['End', '{{secret:bank_pw}}']);
    const used = entries.filter((e) => e.kind === 'event' && e.result?.event === 'secret_used');
    expect(used.length).toBeGreaterThan(0);
    expect(used[0].result).toMatchObject({ secret: '{{secret:bank_pw}}', origin: site.url('bank.test', '').replace(/\/$/, '') });
    // The length never shows: no entry about a secret carries a number of characters.
    for (const e of entries.filter((x) => JSON.stringify(x).includes('{{secret:'))) expect(JSON.stringify(e)).not.toMatch(/"(length|chars|characters|size)":/);
  });
});
