// Site profiles: per-domain named selectors, consent buttons, polite delays and
// tasks (site-profiles/*.json). The host reads and validates the files
// (host/site-profiles.ts) and sends them in the sidecar's init; here the
// sidecar picks the profile whose domains match the page's hostname.
import { WebcapError } from '../manifests/errors.js';
import { hostRuleMatches } from '../manifests/net/hostname.js';

export interface ConsentRules {
  banner?: string; accept?: string; reject?: string;
  iframe?: string; shadow_host?: string;
  /** What policy auto picks when auto_accept_cookies = "per_site". */
  default?: 'accept' | 'reject';
}

export interface TaskStep { call: string; args?: Record<string, unknown>; as?: string; description?: string }

export interface SiteTask {
  description?: string;
  needs: string[];
  inputs?: Record<string, { type: 'string' | 'number' | 'integer' | 'boolean'; description?: string; default?: unknown }>;
  steps: TaskStep[];
  returns?: string;
}

export interface SiteProfile {
  name: string;
  description?: string;
  verified?: boolean;
  note?: string;
  domains: string[];
  selectors?: Record<string, string>;
  consent?: ConsentRules;
  rate?: { min_delay_ms?: number; jitter_ms?: number; max_per_minute?: number };
  scroll?: { max_scrolls?: number; stop_when_no_new_items?: boolean; item_selector?: string; by?: number };
  pagination?: { next?: string; max_pages?: number };
  tasks?: Record<string, SiteTask>;
}

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
