// Selector syntax of the contract: CSS first; xpath=…, role=…, text=… are
// Playwright's own engines and pass through; @name is looked up in the site
// profile matching the page's domain.
import { WebcapError } from '../manifests/errors.js';
import { profileFor, type SiteProfile } from './profiles.js';

export function resolveSelector(selector: string, profiles: SiteProfile[], pageUrl: string): string {
  if (!selector.startsWith('@')) return selector;
  const name = selector.slice(1);
  const profile = profileFor(profiles, pageUrl);
  if (!profile) {
    throw new WebcapError('invalid_params', `named selector ${selector} needs a site profile, and none matches ${safeHost(pageUrl)}`, { selector });
  }
  const css = profile.selectors?.[name];
  if (!css) {
    throw new WebcapError('invalid_params', `site profile "${profile.name}" has no selector named "${name}" (it has: ${Object.keys(profile.selectors ?? {}).join(', ')})`, { selector, profile: profile.name });
  }
  return css;
}

function safeHost(url: string): string {
  try { return new URL(url).hostname || url; } catch { return url; }
}
