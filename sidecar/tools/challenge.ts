// After a plan step: does the page now show something only a person can get
// past? A CAPTCHA or bot challenge (by its vendor's widget), a 2FA code prompt
// (a one-time-code field), or a login wall (a navigation that ended on a
// sign-in page with a password field instead of the page asked for). The
// host decides what to do with it ([handoff] on_captcha).
import { defineTool } from '../tool.js';

// Runs in the page: plain DOM reads, no page code is called.
const PROBE = `(() => {
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const vendors = [
    ['recaptcha', 'iframe[src*="recaptcha/"], .g-recaptcha'],
    ['hcaptcha', 'iframe[src*="hcaptcha.com"], .h-captcha'],
    ['turnstile', 'iframe[src*="challenges.cloudflare.com"], .cf-turnstile'],
    ['cloudflare_challenge', '#challenge-form, #cf-challenge-running'],
    ['arkose', 'iframe[src*="arkoselabs.com"], iframe[src*="funcaptcha.com"]'],
    ['geetest', '.geetest_holder, .geetest_panel'],
    ['captcha', '[id*="captcha" i]:not(script), [class*="captcha" i]:not(script), input[name*="captcha" i]'],
  ];
  for (const [vendor, selector] of vendors) { const el = document.querySelector(selector); if (el && visible(el)) return { kind: 'captcha', vendor }; }
  const otp = [...document.querySelectorAll('input')].find((i) => visible(i) && (i.autocomplete === 'one-time-code' || /^(otp|totp|mfa|2fa|one[-_]?time[-_]?code|(verification|security|auth(entication)?)[-_]?code)$/i.test(i.name || i.id || '')));
  if (otp) return { kind: 'two_factor', vendor: 'one_time_code_field' };
  const password = [...document.querySelectorAll('input[type=password]')].some(visible);
  return password ? { kind: 'password_field', vendor: 'password_field' } : null;
})()`;

interface Found { kind: 'captcha' | 'two_factor' | 'login_wall'; vendor: string }

export const challengeProbe = defineTool('webcap.challenge_probe', async (ctx, params) => {
  const session = ctx.sessions.get(params.session);
  const page = session.page;
  const seen = await page.evaluate(PROBE).catch(() => null) as { kind: string; vendor: string } | null;
  let found: Found | null = null;
  if (seen?.kind === 'captcha' || seen?.kind === 'two_factor') found = seen as Found;
  else if (seen?.kind === 'password_field' && redirectedToSignIn(typeof params.requested === 'string' ? params.requested : undefined, page.url())) {
    found = { kind: 'login_wall', vendor: 'redirected_to_sign_in' };
  }
  return { session: session.name, url: page.url(), found };
});

/** Asked for one page, landed on another whose address says sign-in: a login wall (opening a login page on purpose is not one). */
function redirectedToSignIn(requested: string | undefined, landed: string): boolean {
  if (!requested) return false;
  try {
    const a = new URL(requested);
    const b = new URL(landed);
    return a.origin + a.pathname !== b.origin + b.pathname && /log[-_]?in|sign[-_]?in|auth|session|account/i.test(b.pathname + b.search);
  } catch { return false; }
}
