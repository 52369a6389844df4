// The consent tests' shared bench: fixture banners of every kind (CMPs,
// generic labels in four languages, an iframe from another origin, an open
// shadow root), one headless Chromium, and web.consent.handle driven directly.
// The banners' buttons write body[data-consent], so each test checks which
// button was really pressed. The asker is a stub here: the real one (host →
// user) is tested with the host. The banners are spread over three test files
// so their waits (a banner may take a moment to appear) run side by side.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../manifests/load.js';
import type { SensitiveAction, SidecarInit } from '../../manifests/wire.js';
import { loadProfiles } from '../../host/profiles/site-profiles.js';
import type { SiteProfile } from '../../sidecar/profiles.js';
import type { CallerSessions } from '../../sidecar/sessions/caller-sessions.js';
import type { ToolContext } from '../../sidecar/tool.js';
import { consentHandle } from '../../sidecar/tools/consent.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';
import { send, serve, type FixtureServer } from './fixture-server.js';

const dir = join(projectRoot(), 'tests', 'fixtures', 'consent');

// A profile for "localhost" shows per_site and page-profile detection without touching the shipped ones.
const local: SiteProfile = {
  name: 'local', domains: ['localhost'],
  consent: { banner: '#banner', accept: '#banner button:nth-of-type(3)', reject: '#banner button:nth-of-type(2)', default: 'accept' },
};

type Cookies = SidecarInit['browser']['auto_accept_cookies'];
type Asked = Omit<SensitiveAction, 'session' | 'url'>;

export interface ConsentBench {
  readonly site: FixtureServer;
  readonly page: Page;
  /** What the stub asker was asked since the test began. */
  readonly asked: Asked[];
  /** What the stub asker answers (reset to yes before each test). */
  answer: boolean;
  ctxWith(cookies?: Cookies): ToolContext;
  /** Opens the fixture, runs web.consent.handle with `policy`, and reads which button the page saw pressed. */
  handle(file: string, policy: string, opts?: { cookies?: Cookies; host?: string }): Promise<{ accepted: boolean; details: Record<string, unknown>; pressed: string | null }>;
}

/** Starts the fixture server and Chromium for this file (vitest hooks) and returns the bench. */
export function useConsentBench(): ConsentBench {
  let browser: Browser;
  let context: BrowserContext;
  const bench = { answer: true, asked: [] as Asked[] } as ConsentBench & { site: FixtureServer; page: Page };
  bench.ctxWith = (cookies = false) => {
    const init = { browser: { default_timeout_ms: 30_000, auto_accept_cookies: cookies } } as SidecarInit;
    const session = { name: 's1', page: bench.page, context, createdAt: 0, lastUsed: 0 };
    return {
      init,
      sessions: { get: () => session } as unknown as CallerSessions,
      profiles: [...loadProfiles(join(projectRoot(), 'site-profiles')), local],
      async askUser(action: Asked) { bench.asked.push(action); return bench.answer; },
      async confirm() {},
      lastBlocked: () => undefined,
      forgetBlocked() {},
      async polite() {},
    } as unknown as ToolContext; // the consent tool reads only these
  };
  bench.handle = async (file, policy, opts = {}) => {
    await bench.page.goto(bench.site.url(opts.host ?? '127.0.0.1', `/${file}`));
    const result = await consentHandle.handle(bench.ctxWith(opts.cookies), { policy });
    const pressed = await bench.page.evaluate(() => document.body.dataset.consent ?? null);
    return { ...(result as { accepted: boolean; details: Record<string, unknown> }), pressed };
  };
  beforeAll(async () => {
    bench.site = await serve({
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
    bench.page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await bench.site?.close();
  });
  beforeEach(() => { bench.answer = true; bench.asked.length = 0; });
  return bench;
}

/** fixture, cmp (as @duckduckgo/autoconsent names it, or "generic"), accept button, reject button. */
export type Banner = [string, string, string, string];

// The library's action for CMPs it knows, the label for generic banners.
const LIB: [string, string] = ['optIn', 'optOut'];
export const CMP_BANNERS: Banner[] = [
  ['onetrust.html', 'Onetrust', ...LIB],
  ['cookiebot.html', 'Cybotcookiebot', ...LIB],
  ['didomi.html', 'didomi', ...LIB],
  ['quantcast.html', 'quantcast', ...LIB],
  ['trustarc.html', 'TrustArc-top', ...LIB],
  ['usercentrics.html', 'usercentrics-api', ...LIB],
];
// More CMP shapes, in the markup the library's rule files (rules/autoconsent/*.json) look for.
export const LIBRARY_BANNERS: Banner[] = [
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
];
export const GENERIC_BANNERS: Banner[] = [
  ['generic-en.html', 'generic', 'Accept all', 'Reject all'],
  ['generic-fr.html', 'generic', 'Tout accepter', 'Tout refuser'],
  ['generic-de.html', 'generic', 'Alle akzeptieren', 'Alle ablehnen'],
  ['generic-es.html', 'generic', 'Aceptar todo', 'Rechazar todo'],
  ['iframe.html', 'generic', 'Accept all', 'Reject all'],
  ['shadow.html', 'generic', 'Accept all cookies', 'Only necessary'],
];

/** Every policy against each banner: which button is pressed, whether the user is asked, what they are shown. */
export function describeBanners(banners: Banner[], bench: ConsentBench): void {
  describe.each(banners)('%s', (file, cmp, acceptButton, rejectButton) => {
    const known = cmp !== 'generic';
    const pressedAs = (accepted: boolean) => ({ accepted, pressed: accepted ? 'accepted' : 'rejected' });
    const details = (accepted: boolean, policy: string) => ({ cmp, policy, button: accepted ? acceptButton : rejectButton, choice: accepted ? 'accept' : 'reject' });

    it.each([
      ['auto', false], ['reject', false], ['accept', true],
    ] as const)('policy %s presses %s', async (policy, accepted) => {
      const r = await bench.handle(file, policy);
      expect(r).toMatchObject({ ...pressedAs(accepted), details: details(accepted, policy) });
      expect(bench.asked).toEqual([]);
      if (file === 'iframe.html') expect(r.details.frame).toMatch(/iframe-banner\.html$/);
    });

    it.each([[true], [false]])('policy prompt shows the banner text and follows the answer %s', async (yes) => {
      bench.answer = yes;
      const r = await bench.handle(file, 'prompt');
      expect(r).toMatchObject({ ...pressedAs(yes), details: { ...details(yes, 'prompt'), asked_user: true } });
      expect(bench.asked).toHaveLength(1);
      expect(bench.asked[0]).toMatchObject({ capability: 'web.consent.handle', reason: 'cookie_banner', details: { cmp } });
      const text = bench.asked[0].details!.banner_text as string;
      expect(text).toMatch(/cookie/i);
      expect(text.length).toBeLessThanOrEqual(1000);
    });

    it(`policy auto_or_prompt ${known ? 'rejects a recognised CMP without asking' : 'asks about a generic banner'}`, async () => {
      const r = await bench.handle(file, 'auto_or_prompt');
      expect(r).toMatchObject({ ...pressedAs(!known), details: details(!known, 'auto_or_prompt') });
      expect(bench.asked).toHaveLength(known ? 0 : 1);
    });
  });
}
