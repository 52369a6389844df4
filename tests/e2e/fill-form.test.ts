// web.fill_form through the real stack (host → sidecar → Chromium → loopback
// forms). What the server received is read from the /echo page the form posts
// to, so each test checks what was really sent.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Asker, ConsentQuestion } from '../../host/consent/asker.js';
import type { Host } from '../../host/host.js';
import { formRoutes } from '../fixtures/form-pages.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

const PASSWORD = 'correct-horse-SECRET-42';
// Generous: the e2e suite shares two cores with other Chromium processes.
const TIMEOUT = 45_000;

let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;
const at = (path: string) => site.url('forms.test', path);
// One host for the file: each test sets how its consent questions are answered (by default
// yes, as [consent] non_interactive = "approve" would) and reads only the chain entries it
// wrote; approval_ttl_s = 0, so no test's "yes" answers another test's question.
const configFor = () => testConfig({ network: { resolve: { 'forms.test': '127.0.0.1' } }, consent: { approval_ttl_s: 0 } });
const approveAll: Asker = async () => true;
let answer: Asker = approveAll;
const chainSince = (mark: number) => readFileSync(config.chain.path, 'utf8').slice(mark);
const chainMark = () => readFileSync(config.chain.path, 'utf8').length;

/** The JSON the /echo page shows: what the browser submitted. */
function received(content: unknown): Record<string, string> {
  const line = String(content).split('\n').find((l) => l.startsWith('{'));
  expect(line, `no echo in ${String(content)}`).toBeDefined();
  return JSON.parse(line!);
}

const pngHeader = (path: string) => readFileSync(path).subarray(1, 4).toString('latin1');

beforeAll(async () => {
  site = await serve(formRoutes);
  config = configFor();
  host = testHost(config, { ask: (q) => answer(q) });
});
afterEach(async () => {
  answer = approveAll;
  await host.call('web.close', {}).catch(() => undefined);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe('web.fill_form locates fields labelled in different ways', () => {
  it('fills a form known only by name attributes (every kind), opening a session for the url, and submits it', async () => {
    const r = await host.call('web.fill_form', {
      url: at('/name-only'), timeout: TIMEOUT, submit: true,
      fields: { first_name: 'Ada', bio: 'Hello\nWorld', country: 'Germany', newsletter: true, plan: 'pro', start: '2025-03-14' },
    });
    expect(r).toMatchObject({ success: true, submitted: true, fields_failed: [], opened_session: true });
    expect(r.fields_filled).toEqual(['first_name', 'bio', 'country', 'newsletter', 'plan', 'start']);
    expect(r.values).toMatchObject({
      first_name: { located_by: 'name', kind: 'text', value: 'Ada' },
      bio: { kind: 'textarea', value: 'Hello\nWorld' },
      country: { kind: 'select', value: 'de' }, // chosen by its visible label
      newsletter: { kind: 'checkbox', value: true },
      plan: { kind: 'radio', value: 'pro' },
      start: { kind: 'date', value: '2025-03-14' },
    });
    expect(String(r.result_url)).toContain('/echo?');
    expect(received(r.result_content)).toEqual({ first_name: 'Ada', bio: 'Hello\r\nWorld', country: 'de', newsletter: 'on', plan: 'pro', start: '2025-03-14' });
    expect(r.result_content).toContain('The server received these values:');
    expect(r.result_content).not.toContain('Fixture forms ltd.'); // main text, not the footer
  });

  it('fills a form known only by its label texts, legends included', async () => {
    await host.call('web.open', { url: at('/label-only') });
    const r = await host.call('web.fill_form', {
      timeout: TIMEOUT, submit: true,
      fields: { 'Full name': 'Ada Lovelace', message: 'Hi', Country: 'fr', 'Send me news': 'yes', Plan: 'Basic', 'Start date': '14 March 2025' },
    });
    expect(r.fields_failed).toEqual([]);
    expect(Object.values(r.values as Record<string, { located_by: string }>).map((v) => v.located_by)).toEqual(Array(6).fill('label'));
    expect(received(r.result_content)).toEqual({ f1: 'Ada Lovelace', f2: 'Hi', f3: 'fr', f4: 'on', f5: 'b', f6: '2025-03-14' });
  });

  it('fills a form known only by placeholders', async () => {
    await host.call('web.open', { url: at('/placeholder-only') });
    const r = await host.call('web.fill_form', {
      timeout: TIMEOUT, submit: true, fields: { 'Your email': 'ada@example.org', city: 'London', 'Say something': 'Hello' },
    });
    expect(Object.values(r.values as Record<string, { located_by: string }>).map((v) => v.located_by)).toEqual(['placeholder', 'placeholder', 'placeholder']);
    expect(received(r.result_content)).toEqual({ p1: 'ada@example.org', p2: 'London', p3: 'Hello' });
  });

  it('on a mixed form reports a missing, an ambiguous and a truncated field, fills the rest and does not submit', async () => {
    await host.call('web.open', { url: at('/mixed') });
    const r = await host.call('web.fill_form', {
      timeout: TIMEOUT, submit: true,
      fields: { customer: 'ACME', qty: 3, 'Delivery note': 'ring twice', 'Promo code': 'SPRING', 'Phone number': '0123', fax: '555', code: 'abcdef', name: 'Ada' },
    });
    expect(r).toMatchObject({ success: false, submitted: false, result_url: null, result_content: null });
    expect(r.submit_skipped).toMatch(/3 field\(s\) failed/);
    expect(r.fields_filled).toEqual(['customer', 'qty', 'Delivery note', 'Promo code', 'Phone number']);
    const by = Object.fromEntries(Object.entries(r.values as Record<string, { located_by: string }>).map(([k, v]) => [k, v.located_by]));
    expect(by).toEqual({ customer: 'id', qty: 'name', 'Delivery note': 'label', 'Promo code': 'placeholder', 'Phone number': 'auto' });
    const failed = Object.fromEntries((r.fields_failed as Array<{ field: string; reason: string }>).map((f) => [f.field, f.reason]));
    expect(Object.keys(failed)).toEqual(['fax', 'code', 'name']);
    expect(failed.fax).toMatch(/no field/);
    expect(failed.code).toMatch(/holds "abc"/);
    expect(failed.name).toMatch(/matches 2 fields/);
    // The filled fields really hold their values: send the form by hand and read what arrived.
    await host.call('web.click', { selector: 'button[form=order]', wait_until: 'load' });
    const sent = JSON.parse(((await host.call('web.extract', { selector: '#got' })).items as Array<{ text: string }>)[0].text);
    expect(sent).toMatchObject({ c: 'ACME', qty: '3', n: 'ring twice', promo: 'SPRING', phone_number: '0123', code: 'abc' });
  });

  it('saves before, filled and after screenshots under the workspace screenshots folder', async () => {
    const r = await host.call('web.fill_form', { url: at('/placeholder-only'), timeout: TIMEOUT, submit: true, fields: { City: 'Paris' } });
    const shots = r.screenshots as string[];
    expect(shots.map((p) => p.replace(/.*-\d+-/, ''))).toEqual(['before.png', 'filled.png', 'after.png']);
    for (const p of shots) {
      expect(p.startsWith(`${config.workspace.path}/screenshots/`)).toBe(true);
      expect(existsSync(p) && pngHeader(p)).toBe('PNG');
    }
  });

  it('refuses bad input with clear codes', async () => {
    await expect(host.call('web.fill_form', { url: at('/mixed'), fields: {} })).rejects.toMatchObject({ code: 'invalid_params' });
    await host.call('web.open', { url: at('/mixed') });
    await expect(host.call('web.fill_form', { fields: { customer: 'x' }, form: '#nope', timeout: 1500 })).rejects.toMatchObject({ code: 'selector_not_found' });
    await expect(host.call('web.fill_form', { url: 'http://elsewhere.example/', fields: { a: 'b' } })).rejects.toMatchObject({ code: 'not_allowlisted' });
  });
});

describe('web.fill_form consent and secrets', () => {
  it('asks before typing the password and before submitting; on yes, sends it and keeps the password out of result and chain', async () => {
    const mark = chainMark();
    const questions: ConsentQuestion[] = [];
    answer = async (q) => { questions.push(q); return true; };
    const r = await host.call('web.fill_form', { url: at('/signup'), timeout: TIMEOUT, submit: true, fields: { User: 'ada', pw: PASSWORD } });
    expect(questions.map((q) => q.reason)).toEqual(['password_field', 'form_submit']);
    expect(questions[1].details).toMatchObject({ method: 'POST' });
    expect(r).toMatchObject({ success: true, submitted: true, result_status: 200, values: { pw: { value: '[REDACTED]' } } });
    expect(String(r.result_url)).toMatch(/\/signup-done$/);
    expect(r.result_content).toContain('Welcome, ada');
    expect(r.result_content).toContain('Your password is [REDACTED]');
    expect(JSON.stringify(r)).not.toContain(PASSWORD);
    expect(chainSince(mark)).toContain('web.fill_form');
    expect(readFileSync(config.chain.path, 'utf8')).not.toContain(PASSWORD);
    expect(readFileSync(config.logging.file, 'utf8')).not.toContain(PASSWORD);
  }, 120_000);

  it('on no to the submit question fails with consent_denied and sends nothing', async () => {
    const mark = chainMark();
    answer = async (q) => q.reason !== 'form_submit';
    const before = site.hits.filter((h) => h.includes('/signup-done')).length;
    const err = await host.call('web.fill_form', { url: at('/signup'), timeout: TIMEOUT, submit: true, fields: { User: 'bob', pw: PASSWORD } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'consent_denied' });
    expect((err as Error).message).toMatch(/filled but not sent/);
    expect(site.hits.filter((h) => h.includes('/signup-done')).length).toBe(before);
    expect(chainSince(mark)).toContain('consent_denied');
    expect(readFileSync(config.chain.path, 'utf8')).not.toContain(PASSWORD);
  }, 120_000);

  it('a password cut short by maxlength fails without showing what the field kept, in the result or the chain', async () => {
    const mark = chainMark();
    const secret = 'Zq8-long-password-here';
    const r = await host.call('web.fill_form', { url: at('/short-password'), timeout: TIMEOUT, fields: { Password: secret } });
    expect(r.success).toBe(false);
    const failed = r.fields_failed as Array<{ field: string; reason: string }>;
    expect(failed).toEqual([{ field: 'Password', reason: expect.stringMatching(/not shown: the field is secret/) }]);
    expect(JSON.stringify(r)).not.toContain(secret.slice(0, 3));
    expect(chainSince(mark)).toContain('not shown: the field is secret');
    expect(readFileSync(config.chain.path, 'utf8')).not.toContain(secret.slice(0, 3));
    expect(readFileSync(config.logging.file, 'utf8')).not.toContain(secret.slice(0, 3));
  }, 120_000);
});
