// A site profile's polite rate (min_delay_ms, jitter_ms) for a host, read by
// the host so a shared store can keep that gap for the whole fleet (the
// sidecar applies it per process only). Profiles are loaded on first use, not
// at start-up: their schema compile stays off the cold start.
import { join } from 'node:path';
import { projectRoot } from '../../manifests/load.js';
import { hostRuleMatches } from '../../manifests/net/hostname.js';
import { loadProfiles } from '../profiles/site-profiles.js';

export interface SiteRate { min_delay_ms?: number; jitter_ms?: number }

export function siteRates(dir = join(projectRoot(), 'site-profiles')): (host: string) => SiteRate | undefined {
  let profiles: ReturnType<typeof loadProfiles> | undefined;
  const seen = new Map<string, SiteRate | undefined>();
  return (host) => {
    if (!seen.has(host)) {
      profiles ??= loadProfiles(dir);
      seen.set(host, profiles.find((p) => p.domains.some((d) => hostRuleMatches(host, d)))?.rate);
    }
    return seen.get(host);
  };
}
