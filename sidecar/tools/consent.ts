// web.consent.handle {policy}: find the cookie banner (profile, known CMP or
// generic buttons, in any frame or open shadow root), pick a button by policy
// and press it. "prompt" shows the user the banner's text through the host,
// so the answer comes from the user, never from the page.
import { WebcapError } from '../../manifests/errors.js';
import { press } from '../consent/click.js';
import { decide, preference } from '../consent/decide.js';
import { detect, detectProfile } from '../consent/detect.js';
import { profileFor, profileNamed } from '../profiles.js';
import { pageTool } from '../tool.js';

/** How long a banner may take to appear before we say there is none. */
const SETTLE_MS = 2500;
const BANNER_TEXT_MAX = 1000;

export const consentHandle = pageTool('web.consent.handle', async ({ page, session, timeout, ctx }, params) => {
  const policy = params.policy as string;
  const named = policy.startsWith('profile:') ? profileNamed(ctx.profiles, policy.slice('profile:'.length)) : undefined;
  if (named && !named.consent) {
    throw new WebcapError('invalid_params', `site profile "${named.name}" has no consent block`, { profile: named.name, field: 'consent' });
  }
  const profile = named ?? profileFor(ctx.profiles, page.url());
  const settle = Math.min(timeout, SETTLE_MS);
  const banner = named ? await detectProfile(page, named, settle) : await detect(page, profile, settle);
  if (!banner.found) return { accepted: false, details: { cmp: null, button: null, policy, reason: 'no banner' } };

  const base = { cmp: banner.cmp, button: null, policy, ...(banner.frame ? { frame: banner.frame } : {}) };
  const prefer = preference(ctx.init.browser.auto_accept_cookies, profile);
  let choice = decide(policy, { known: banner.known, accept: !!banner.accept, reject: !!banner.reject }, prefer);
  let asked = {};
  if (choice === 'ask') {
    const details = { banner_text: banner.bannerText.slice(0, BANNER_TEXT_MAX), cmp: banner.cmp };
    const yes = await ctx.askUser({ capability: 'web.consent.handle', reason: 'cookie_banner', details }, session);
    choice = yes ? 'accept' : 'reject';
    asked = { asked_user: true, user_said: yes ? 'accept' : 'reject' };
  }
  const button = banner[choice];
  if (!button) return { accepted: false, details: { ...base, ...asked, reason: `no ${choice} button` } };
  await ctx.polite(session);
  const hidden = await press(button.locator, banner.banner, timeout);
  return { accepted: choice === 'accept', details: { ...base, ...asked, button: button.label, choice, banner_hidden: hidden } };
});
