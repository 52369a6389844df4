// web.consent.handle × every policy on generic banners (labels in four
// languages, an iframe from another origin, an open shadow root), then the
// configuration: auto_accept_cookies, per-site profiles, a profile's iframe,
// missing buttons and an "Accept" outside any banner (tests/helpers/consent-banners.ts).
import { describe, expect, it } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';
import { consentHandle } from '../../sidecar/tools/consent.js';
import { GENERIC_BANNERS, describeBanners, useConsentBench } from '../helpers/consent-banners.js';

const bench = useConsentBench();
describeBanners(GENERIC_BANNERS, bench);

describe('configuration, profiles and missing buttons', () => {
  it('auto_accept_cookies = true makes auto accept', async () => {
    expect(await bench.handle('didomi.html', 'auto', { cookies: true })).toMatchObject({ accepted: true, pressed: 'accepted' });
  });

  it('per_site follows the page\'s profile, found by domain', async () => {
    const perSite = await bench.handle('generic-en.html', 'auto', { cookies: 'per_site', host: 'localhost' });
    expect(perSite).toMatchObject({ accepted: true, pressed: 'accepted', details: { cmp: 'profile:local', button: '#banner button:nth-of-type(3)' } });
    const off = await bench.handle('generic-en.html', 'auto', { cookies: false, host: 'localhost' });
    expect(off).toMatchObject({ accepted: false, pressed: 'rejected', details: { cmp: 'profile:local' } });
  });

  it('profile:demo-booking presses the buttons inside its iframe', async () => {
    const r = await bench.handle('iframe.html', 'profile:demo-booking');
    expect(r).toEqual({
      session: 's1', accepted: false, pressed: 'rejected',
      details: { cmp: 'profile:demo-booking', policy: 'profile:demo-booking', frame: 'iframe#consent-frame', button: '#cm-reject', choice: 'reject', banner_hidden: true },
    });
  });

  it('profile:NAME whose banner is absent presses nothing', async () => {
    const r = await bench.handle('generic-en.html', 'profile:demo-maps');
    expect(r).toMatchObject({ accepted: false, pressed: null, details: { cmp: null, button: null, reason: 'no banner' } });
  });

  it('an unknown profile is invalid_params', async () => {
    await bench.page.goto(bench.site.url('127.0.0.1', '/generic-en.html'));
    const err = await consentHandle.handle(bench.ctxWith(), { policy: 'profile:nope' }).catch((e: WebcapError) => e);
    expect(err).toMatchObject({ code: 'invalid_params' });
    expect((err as Error).message).toMatch(/no site profile named "nope"/);
  });

  it('reject with no reject button clicks nothing; auto then accepts', async () => {
    const r = await bench.handle('accept-only.html', 'reject');
    expect(r).toMatchObject({ accepted: false, pressed: null, details: { cmp: 'generic', button: null, policy: 'reject', reason: 'no reject button' } });
    expect(await bench.handle('accept-only.html', 'auto')).toMatchObject({ accepted: true, pressed: 'accepted', details: { button: 'Accept' } });
  });

  it('an "Accept" button outside any cookie banner is left alone', async () => {
    const r = await bench.handle('not-a-banner.html', 'accept');
    expect(r).toMatchObject({ accepted: false, pressed: null, details: { cmp: null, button: null, policy: 'accept', reason: 'no banner' } });
  });
});
