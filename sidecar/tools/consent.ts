// web.consent.handle {policy}: find the cookie banner (the site profile's
// rules, then @duckduckgo/autoconsent's, then generic buttons; in any frame
// or open shadow root), pick accept or reject by policy and press it (the
// library opts in or out itself). "prompt" shows the user the banner's text through the host,
// so the answer comes from the user, never from the page.
import { WebcapError } from '../../manifests/errors.js';
import { press } from '../consent/click.js';
import { decide, preference } from '../consent/decide.js';
import { detect, detectProfile, type Detection } from '../consent/detect.js';
import { stopLibrary } from '../consent/library.js';
import { profileFor, profileNamed, type SiteProfile } from '../profiles.js';
import { pageTool, type PageCall } from '../tool.js';

/** How long a banner may take to appear before we say there is none. */
const SETTLE_MS = 2500;
const BANNER_TEXT_MAX = 1000;

export const consentHandle = pageTool('web.consent.handle', async ({ page, session, timeout, ctx }, params) => {
  const policy = params.policy;
  const named = policy.startsWith('profile:') ? profileNamed(ctx.profiles, policy.slice('profile:'.length)) : undefined;
  if (named && !named.consent) {
    throw new WebcapError('invalid_params', `site profile "${named.name}" has no consent block`, { profile: named.name, field: 'consent' });
  }
  const profile = named ?? profileFor(ctx.profiles, page.url());
  const settle = Math.min(timeout, SETTLE_MS);
  const banner = named ? await detectProfile(page, named, settle) : await detect(page, profile, settle);
  if (!banner.found) return { accepted: false, details: { cmp: null, button: null, policy, reason: 'no banner' } };

  try {
    return await answer(banner, policy, profile, { session, timeout, ctx });
  } finally {
    if (banner.library) stopLibrary(banner.library);
  }
});


async function answer(banner: Detection, policy: string, profile: SiteProfile | undefined, { session, timeout, ctx }: Pick<PageCall, 'session' | 'timeout' | 'ctx'>) {
  const base = { cmp: banner.cmp, button: null, policy, ...(banner.frame ? { frame: banner.frame } : {}) };
  const prefer = preference(ctx.init.browser.auto_accept_cookies, profile);
  // The library's rules carry both an opt-in and an opt-out for every CMP it knows.
  const has = banner.library ? { accept: true, reject: true } : { accept: !!banner.accept, reject: !!banner.reject };
  let choice = decide(policy, { known: banner.known, ...has }, prefer);
  let asked = {};
  if (choice === 'ask') {
    const details = { banner_text: banner.bannerText.slice(0, BANNER_TEXT_MAX), cmp: banner.cmp };
    const yes = await ctx.askUser({ capability: 'web.consent.handle', reason: 'cookie_banner', details }, session);
    choice = yes ? 'accept' : 'reject';
    asked = { asked_user: true, user_said: yes ? 'accept' : 'reject' };
  }
  if (banner.library) {
    await ctx.polite(session);
    const action = choice === 'accept' ? 'optIn' : 'optOut';
    const done = await banner.library.act(action, timeout);
    const details = { ...base, ...asked, button: action, choice, rules: '@duckduckgo/autoconsent', banner_hidden: done };
    if (!done) return { accepted: false, details: { ...details, reason: `autoconsent's ${action} for ${banner.cmp} did not complete` } };
    return { accepted: choice === 'accept', details };
  }
  const button = banner[choice];
  if (!button) return { accepted: false, details: { ...base, ...asked, reason: `no ${choice} button` } };
  await ctx.polite(session);
  const hidden = await press(button.locator, banner.banner, timeout);
  return { accepted: choice === 'accept', details: { ...base, ...asked, button: button.label, choice, banner_hidden: hidden } };
}
