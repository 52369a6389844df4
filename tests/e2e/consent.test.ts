// web.consent.handle against fixture banners of every kind (CMPs, generic
// labels in four languages, an iframe from another origin, an open shadow
// root) × every policy. The sidecar tool is driven directly with one headless
// Chromium; the banners' buttons write body[data-consent], so each test
// checks which button was really pressed. The asker is a stub here: the real
// one (host → user) is tested with the host.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';
import { projectRoot } from '../../manifests/load.js';
import type { SensitiveAction, SidecarInit } from '../../manifests/wire.js';
import { loadProfiles } from '../../host/profiles/site-profiles.js';
import type { SiteProfile } from '../../sidecar/profiles.js';
import type { CallerSessions } from '../../sidecar/sessions/caller-sessions.js';
import type { ToolContext } from '../../sidecar/tool.js';
import { consentHandle } from '../../sidecar/tools/consent.js';
import { send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

const dir = join(projectRoot(), 'tests', 'fixtures', 'consent');
let site: FixtureServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let answer = true;
let asked: Omit<SensitiveAction, 'session' | 'url'>[] = [];

// A profile for "localhost" shows per_site and page-profile detection without touching the shipped ones.
const local: SiteProfile = {
  name: 'local', domains: ['localhost'],
  consent: { banner: '#banner', accept: '#banner button:nth-of-type(3)', reject: '#banner button:nth-of-type(2)', default: 'accept' },
};

function ctxWith(cookies: SidecarInit['browser']['auto_accept_cookies'] = false): ToolContext {
  const init = { browser: { default_timeout_ms: 30_000, auto_accept_cookies: cookies } } as SidecarInit;
  const session = { name: 's1', page, context, createdAt: 0, lastUsed: 0 };
  return {
    init,
    sessions: { get: () => session } as unknown as CallerSessions,
    profiles: [...loadProfiles(join(projectRoot(), 'site-profiles')), local],
    async askUser(action: Omit<SensitiveAction, 'url' | 'session'>) { asked.push(action); return answer; },
    async confirm() {},
    lastBlocked: () => undefined,
    forgetBlocked() {},
    async polite() {},
  } as unknown as ToolContext; // the consent tool reads only these
}

async function handle(file: string, policy: string, opts: { cookies?: SidecarInit['browser']['auto_accept_cookies']; host?: string } = {}) {
  await page.goto(site.url(opts.host ?? '127.0.0.1', `/${file}`));
  const result = await consentHandle.handle(ctxWith(opts.cookies), { policy });
  const pressed = await page.evaluate(() => document.body.dataset.consent ?? null);
  return { ...(result as { accepted: boolean; details: Record<string, unknown> }), pressed };
}

beforeAll(async () => {
  site = await serve({
    '*': async (req, res) => {
      const name = (req.url ?? '/').split('?')[0].replace(/^\/+/, '');
      if (!/^(library\/)?[\w-]+\.html$/.test(name)) return send(res, 'not found', 404, 'text/plain');
      send(res, await readFile(join(dir, name), 'utf8').catch(() => 'not found'));
    },
  });
  browser = await chromium.launch({
    executablePath: (await findChromium())!.path,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  context = await browser.newContext();
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
beforeEach(() => { answer = true; asked = []; });

// fixture, cmp (as @duckduckgo/autoconsent names it, or "generic"), accept button, reject button
// (the library's action for CMPs it knows, the label for generic banners)
const LIB: [string, string] = ['optIn', 'optOut'];
const banners: [string, string, string, string][] = [
  ['onetrust.html', 'Onetrust', ...LIB],
  ['cookiebot.html', 'Cybotcookiebot', ...LIB],
  ['didomi.html', 'didomi', ...LIB],
  ['quantcast.html', 'quantcast', ...LIB],
  ['trustarc.html', 'TrustArc-top', ...LIB],
  ['usercentrics.html', 'usercentrics-api', ...LIB],
  // More CMP shapes, in the markup the library's rule files (rules/autoconsent/*.json) look for.
  ['library/adroll.html', 'Adroll', ...LIB],
  ['library/cassie.html', 'cassie', ...LIB],
  ['library/spicy.html', 'cookie-consent-spice', ...LIB],
  ['library/hubspot.html', 'hubspot', ...LIB],
  ['library/kconsent.html', 'kconsent', ...LIB],
  ['library/shopify.html', 'shopify', ...LIB],
  ['library/truyo.html', 'truyo', ...LIB],
  ['library/twcc.html', 'twcc', ...LIB],
  ['library/zdf.html', 'zdf', ...LIB],
  ['library/wp-gdpr.html', 'WP Cookie Notice for GDPR', ...LIB],
  ['library/u12.html', 'u12-data-protection-notice', ...LIB],
  ['library/squiz.html', 'squiz', ...LIB],
  ['generic-en.html', 'generic', 'Accept all', 'Reject all'],
  ['generic-fr.html', 'generic', 'Tout accepter', 'Tout refuser'],
  ['generic-de.html', 'generic', 'Alle akzeptieren', 'Alle ablehnen'],
  ['generic-es.html', 'generic', 'Aceptar todo', 'Rechazar todo'],
  ['iframe.html', 'generic', 'Accept all', 'Reject all'],
  ['shadow.html', 'generic', 'Accept all cookies', 'Only necessary'],
];

describe.each(banners)('%s', (file, cmp, acceptButton, rejectButton) => {
  const known = cmp !== 'generic';
  const pressedAs = (accepted: boolean) => ({ accepted, pressed: accepted ? 'accepted' : 'rejected' });
  const details = (accepted: boolean, policy: string) => ({ cmp, policy, button: accepted ? acceptButton : rejectButton, choice: accepted ? 'accept' : 'reject' });

  it.each([
    ['auto', false], ['reject', false], ['accept', true],
  ] as const)('policy %s presses %s', async (policy, accepted) => {
    const r = await handle(file, policy);
    expect(r).toMatchObject({ ...pressedAs(accepted), details: details(accepted, policy) });
    expect(asked).toEqual([]);
    if (file === 'iframe.html') expect(r.details.frame).toMatch(/iframe-banner\.html$/);
  });

  it.each([[true], [false]])('policy prompt shows the banner text and follows the answer %s', async (yes) => {
    answer = yes;
    const r = await handle(file, 'prompt');
    expect(r).toMatchObject({ ...pressedAs(yes), details: { ...details(yes, 'prompt'), asked_user: true } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ capability: 'web.consent.handle', reason: 'cookie_banner', details: { cmp } });
    const text = asked[0].details!.banner_text as string;
    expect(text).toMatch(/cookie/i);
    expect(text.length).toBeLessThanOrEqual(1000);
  });

  it(`policy auto_or_prompt ${known ? 'rejects a recognised CMP without asking' : 'asks about a generic banner'}`, async () => {
    const r = await handle(file, 'auto_or_prompt');
    expect(r).toMatchObject({ ...pressedAs(!known), details: details(!known, 'auto_or_prompt') });
    expect(asked).toHaveLength(known ? 0 : 1);
  });
});

describe('configuration, profiles and missing buttons', () => {
  it('auto_accept_cookies = true makes auto accept', async () => {
    expect(await handle('didomi.html', 'auto', { cookies: true })).toMatchObject({ accepted: true, pressed: 'accepted' });
  });

  it('per_site follows the page\'s profile, found by domain', async () => {
    const perSite = await handle('generic-en.html', 'auto', { cookies: 'per_site', host: 'localhost' });
    expect(perSite).toMatchObject({ accepted: true, pressed: 'accepted', details: { cmp: 'profile:local', button: '#banner button:nth-of-type(3)' } });
    const off = await handle('generic-en.html', 'auto', { cookies: false, host: 'localhost' });
    expect(off).toMatchObject({ accepted: false, pressed: 'rejected', details: { cmp: 'profile:local' } });
  });

  it('profile:demo-booking presses the buttons inside its iframe', async () => {
    const r = await handle('iframe.html', 'profile:demo-booking');
    expect(r).toEqual({
      session: 's1', accepted: false, pressed: 'rejected',
      details: { cmp: 'profile:demo-booking', policy: 'profile:demo-booking', frame: 'iframe#consent-frame', button: '#cm-reject', choice: 'reject', banner_hidden: true },
    });
  });

  it('profile:NAME whose banner is absent presses nothing', async () => {
    const r = await handle('generic-en.html', 'profile:demo-maps');
    expect(r).toMatchObject({ accepted: false, pressed: null, details: { cmp: null, button: null, reason: 'no banner' } });
  });

  it('an unknown profile is invalid_params', async () => {
    await page.goto(site.url('127.0.0.1', '/generic-en.html'));
    const err = await consentHandle.handle(ctxWith(), { policy: 'profile:nope' }).catch((e: WebcapError) => e);
    expect(err).toMatchObject({ code: 'invalid_params' });
    expect((err as Error).message).toMatch(/no site profile named "nope"/);
  });

  it('reject with no reject button clicks nothing; auto then accepts', async () => {
    const r = await handle('accept-only.html', 'reject');
    expect(r).toMatchObject({ accepted: false, pressed: null, details: { cmp: 'generic', button: null, policy: 'reject', reason: 'no reject button' } });
    expect(await handle('accept-only.html', 'auto')).toMatchObject({ accepted: true, pressed: 'accepted', details: { button: 'Accept' } });
  });

  it('an "Accept" button outside any cookie banner is left alone', async () => {
    const r = await handle('not-a-banner.html', 'accept');
    expect(r).toMatchObject({ accepted: false, pressed: null, details: { cmp: null, button: null, policy: 'accept', reason: 'no banner' } });
  });
});
