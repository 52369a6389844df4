// Which button a policy presses. Pure, so each policy × config × banner shape
// is a table case. The default leans to reject: consent that was never really
// asked for is not consent, so "auto" accepts only when there is no way to say no
// (or the config says accept).
import type { SiteProfile } from '../profiles.js';

type Choice = 'accept' | 'reject';

/** What policy auto prefers, from [capabilities.browser] auto_accept_cookies. */
export function preference(setting: boolean | 'per_site' | undefined, profile: SiteProfile | undefined): Choice {
  if (setting === true) return 'accept';
  if (setting === 'per_site') return profile?.consent?.default ?? 'reject';
  return 'reject';
}

/**
 * 'ask' means: show the banner to the user and press what they say.
 * A Choice whose button is missing is the caller's to report, never to swap,
 * except for the auto policies, which fall back to the other button.
 */
export function decide(policy: string, banner: { known: boolean; accept: boolean; reject: boolean }, prefer: Choice): Choice | 'ask' {
  if (policy === 'accept' || policy === 'reject') return policy;
  if (policy === 'prompt') return 'ask';
  if (policy === 'auto_or_prompt' && !banner.known) return 'ask';
  // auto, auto_or_prompt on a recognised banner, profile:NAME
  const other: Choice = prefer === 'accept' ? 'reject' : 'accept';
  return banner[prefer] || !banner[other] ? prefer : other;
}
