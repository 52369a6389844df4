// Site profiles: per-domain named selectors, consent buttons, polite delays and
// tasks (site-profiles/*.json). The host reads and validates the files
// (host/profiles/site-profiles.ts) and sends them in the sidecar's init; here the
// sidecar picks the profile whose domains match the page's hostname.
import { WebcapError } from '../manifests/errors.js';
import { hostRuleMatches } from '../manifests/net/hostname.js';
import type { SiteProfile } from '../manifests/site-profile.js';

export type { ConsentRules, SiteProfile, SiteTask, TaskStep } from '../manifests/site-profile.js';

export function profileFor(profiles: SiteProfile[], url: string): SiteProfile | undefined {
  let host: string;
  try { host = new URL(url).hostname; } catch { return undefined; }
  return profiles.find((p) => p.domains.some((d) => hostRuleMatches(host, d)));
}

export function profileNamed(profiles: SiteProfile[], name: string): SiteProfile {
  const profile = profiles.find((p) => p.name === name);
  if (!profile) {
    throw new WebcapError('invalid_params', `no site profile named "${name}" (have: ${profiles.map((p) => p.name).join(', ') || 'none'})`, { profile: name });
  }
  return profile;
}
