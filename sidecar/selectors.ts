// Selector syntax of the contract: CSS first; xpath=…, role=…, text=… are
// Playwright's own engines and pass through; @name is looked up in the site
// profile matching the page's domain, and may lead a Playwright chain
// (`@result_item >> nth=19`: the 20th result).
import { WebcapError } from '../manifests/errors.js';
import { namedSelector } from '../manifests/site-profile.js';
import { profileFor, type SiteProfile } from './profiles.js';

export function resolveSelector(selector: string, profiles: SiteProfile[], pageUrl: string): string {
  const named = namedSelector(selector);
  if (!named) return selector;
  const { name } = named;
  const profile = profileFor(profiles, pageUrl);
  if (!profile) {
    throw new WebcapError('invalid_params', `named selector ${selector} needs a site profile, and none matches ${safeHost(pageUrl)}`, { selector });
  }
  const css = profile.selectors?.[name];
  if (!css) {
    throw new WebcapError('invalid_params', `site profile "${profile.name}" has no selector named "${name}" (it has: ${Object.keys(profile.selectors ?? {}).join(', ')})`, { selector, profile: profile.name });
  }
  return `${css}${named.rest}`;
}

function safeHost(url: string): string {
  try { return new URL(url).hostname || url; } catch { return url; }
}
