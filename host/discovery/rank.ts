// The web fallback: when no API serves a need such as
// "restaurant.search", find the site profiles whose declared tasks do, and
// rank them. Only needs shaped like a web task (search.*, browse.*, *.search)
// fall back to the web; an allowlist-refused site stays listed but last, so
// the caller sees why it was not chosen.
import micromatch from 'micromatch';
import { WebcapError } from '../../manifests/errors.js';
import { matchHost } from '../../manifests/net/hostname.js';
import type { SiteProfile, SiteTask } from '../../manifests/site-profile.js';
import type { WebcapConfig } from '../config/types.js';

/** The needs the web fallback answers, as globs. */
const WEB_NEEDS = ['search.*', 'browse.*', '*.search', '*.*.search', 'restaurant.*', 'local.business.*'];

export interface Candidate {
  profile: string;
  task: string;
  description: string;
  score: number;
  /** Why it scored that: which declared need matched and how. */
  reason: string;
  verified: boolean;
  start_url: string | null;
  allowed: boolean;
  missing_inputs: string[];
}

export function needMatchScore(need: string, declared: string): number {
  if (need === declared) return 3;
  if (micromatch.isMatch(declared, need) || micromatch.isMatch(need, declared)) return 2;
  // Same kind of task on another subject: "restaurant.search" vs "local.business.search".
  if (need.split('.').at(-1) === declared.split('.').at(-1)) return 1;
  return 0;
}

export function rankCandidates(profiles: SiteProfile[], need: string, inputs: Record<string, unknown>, config: WebcapConfig): Candidate[] {
  if (!need || !/^[\w*.-]+$/.test(need)) throw new WebcapError('invalid_params', `need "${need}" should look like "restaurant.search" (letters, dots, *)`, { field: 'need' });
  if (!micromatch.isMatch(need, WEB_NEEDS)) return [];
  const { domains_allowlist: allow, domains_denylist: deny } = config.capabilities.browser;
  const out: Candidate[] = [];
  for (const profile of profiles) {
    for (const [taskName, task] of Object.entries(profile.tasks ?? {})) {
      const best = Math.max(0, ...task.needs.map((d) => needMatchScore(need, d)));
      if (best === 0) continue;
      const matched = task.needs.find((d) => needMatchScore(need, d) === best)!;
      const startUrl = String(inputs.url ?? task.inputs?.url?.default ?? '') || null;
      const host = startUrl ? safeHost(startUrl) : undefined;
      const allowed = host ? matchHost(host, allow, deny).allowed : profile.domains.some((d) => matchHost(d.replace(/^\*\./, ''), allow, deny).allowed);
      const missing = missingInputs(task, inputs);
      out.push({
        profile: profile.name, task: taskName, description: task.description ?? '',
        score: best + (profile.verified ? 0.5 : 0) - (missing.length ? 2 : 0) - (allowed ? 0 : 10),
        reason: `declares need "${matched}" (${['', 'same kind of task', 'pattern match', 'exact match'][best]})${profile.verified ? ', verified selectors' : ', selectors not verified'}${allowed ? '' : `, ${host ?? profile.domains[0]} is not allowlisted`}${missing.length ? `, missing input ${missing.join(', ')}` : ''}`,
        verified: Boolean(profile.verified), start_url: startUrl, allowed, missing_inputs: missing,
      });
    }
  }
  return out.sort((a, b) => b.score - a.score || a.profile.localeCompare(b.profile));
}

function missingInputs(task: SiteTask, inputs: Record<string, unknown>): string[] {
  return Object.entries(task.inputs ?? {}).filter(([k, spec]) => inputs[k] === undefined && spec.default === undefined).map(([k]) => k);
}

function safeHost(url: string): string | undefined {
  try { return new URL(url).hostname; } catch { return undefined; }
}
