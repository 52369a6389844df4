// Which budgets a call spends: the global browser budget, then every
// per-capability and per-domain table ([budgets] per_capability,
// per_capability_per_hour, per_capability_per_day, and the same for
// per_domain), each a sliding window of its own length. A principal's own
// tables add buckets under its name: they can only narrow the host's.
import { hostRuleMatches } from '../../manifests/net/hostname.js';
import { WINDOWS, type BucketSpec } from './admission.js';

export interface BudgetTables {
  per_capability?: Record<string, number>;
  per_capability_per_hour?: Record<string, number>;
  per_capability_per_day?: Record<string, number>;
  per_domain?: Record<string, number>;
  per_domain_per_hour?: Record<string, number>;
  per_domain_per_day?: Record<string, number>;
}

type Window = keyof typeof WINDOWS;
const TABLES: Array<[keyof BudgetTables, 'capability' | 'domain', Window]> = [
  ['per_capability', 'capability', 'minute'], ['per_capability_per_hour', 'capability', 'hour'], ['per_capability_per_day', 'capability', 'day'],
  ['per_domain', 'domain', 'minute'], ['per_domain_per_hour', 'domain', 'hour'], ['per_domain_per_day', 'domain', 'day'],
];

/** The buckets of these tables that apply to a call on `capability` acting on `host` (normalised), names prefixed by `owner`. */
export function tableBuckets(tables: BudgetTables, capability: string, host: string | undefined, owner = ''): BucketSpec[] {
  const out: BucketSpec[] = [];
  for (const [key, kind, window] of TABLES) {
    const table = tables[key];
    if (!table) continue;
    const suffix = window === 'minute' ? '' : `/${window}`;
    if (kind === 'capability') {
      const limit = table[capability];
      if (limit) out.push({ name: `${owner}capability:${capability}${suffix}`, limit, windowMs: WINDOWS[window] });
      continue;
    }
    if (!host) continue;
    for (const [glob, limit] of Object.entries(table)) {
      if (hostRuleMatches(host, glob)) out.push({ name: `${owner}domain:${glob}${suffix}`, limit, windowMs: WINDOWS[window] });
    }
  }
  return out;
}

/** "50 actions per day" */
export function describeBucket(b: BucketSpec): string {
  const window = (Object.keys(WINDOWS) as Window[]).find((w) => WINDOWS[w] === b.windowMs);
  return `${b.limit} actions per ${window ?? `${b.windowMs} ms`}`;
}
