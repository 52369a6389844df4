// Budgets: global (max_actions_per_minute, browser actions only), per
// capability and per domain glob, each per minute, hour or day (buckets.ts). A token is taken from every applicable
// bucket only when all have one, so a refusal costs nothing. Then the
// politeness gate may make the call wait; a wait longer than the call's own
// timeout is refused (budget_exceeded + retry_after_ms) before any token is
// taken. Where the buckets and the politeness clock live is the Admission's
// business (this process, or Redis for many hosts); a store that cannot
// answer refuses the call (reason store_unavailable): never allow by default.
import { WebcapError } from '../../manifests/errors.js';
import { normalizeHost } from '../../manifests/net/hostname.js';
import { EmbeddedAdmission, WINDOWS, type Admission, type BucketSpec } from '../budget/admission.js';
import { describeBucket, tableBuckets } from '../budget/buckets.js';
import type { PolitenessGate } from '../budget/politeness.js';
import type { WebcapConfig } from '../config/types.js';
import { orRefuse } from '../store/refusal.js';
import type { Policy } from './types.js';

export function budgetPolicy(config: WebcapConfig, opts: { now?: () => number; politeness?: PolitenessGate; admission?: Admission } = {}): Policy {
  const admission = opts.admission ?? new EmbeddedAdmission(opts.politeness, opts.now);

  return async (call, next) => {
    // The global bucket counts browser actions (sidecar calls, and host
    // capabilities that drive the browser such as web.scrape); per-capability
    // and per-domain budgets apply to every capability, search APIs included.
    const browser = call.manifest.provider === 'sidecar' || (call.manifest.effects ?? []).includes('browser');
    const buckets: BucketSpec[] = browser ? [{ name: 'global', limit: config.capabilities.browser.max_actions_per_minute, windowMs: WINDOWS.minute }] : [];
    // Normalised, so "shop.test." spends the budget of "shop.test".
    const host = call.url?.hostname ? normalizeHost(call.url.hostname) : undefined;
    buckets.push(...tableBuckets(config.budgets, call.capability, host));
    // A client's own budgets are separate buckets under its name: they narrow, never widen.
    if (call.principal?.budgets) buckets.push(...tableBuckets(call.principal.budgets, call.capability, host, `client:${call.principal.name}:`));
    if (buckets.length === 0) return next();
    const timeoutMs = (call.params.timeout as number | undefined) ?? config.capabilities.browser.default_timeout_ms;
    const verdict = await orRefuse(call, 'budget', 'the budget', () => admission.admit({ buckets, host, maxWaitMs: timeoutMs }));
    if (!verdict.ok && verdict.kind === 'budget') {
      const { name } = verdict.bucket;
      const size = describeBucket(verdict.bucket);
      call.decisions.push({ policy: 'budget', decision: 'denied', reason: `${name} budget of ${size} spent` });
      throw new WebcapError('budget_exceeded', `over the ${name} budget of ${size}; retry in ${verdict.retryAfterMs} ms`, { retry_after_ms: verdict.retryAfterMs, budget: name });
    }
    if (!verdict.ok) {
      const retryAfterMs = Math.ceil(verdict.dueMs);
      call.decisions.push({ policy: 'budget', decision: 'denied', reason: `polite delay of ${retryAfterMs} ms for ${host} exceeds the call's timeout of ${timeoutMs} ms` });
      throw new WebcapError('budget_exceeded', `${host} asks for a gap between actions (robots.txt Crawl-delay); the next action is due in ${retryAfterMs} ms, longer than this call's timeout of ${timeoutMs} ms`, { retry_after_ms: retryAfterMs, budget: `politeness:${host}` });
    }
    const waited = verdict.waitedMs;
    // admitted_at: the store's clock when the tokens were taken (Redis's TIME with a shared store),
    // so budgets can be audited across hosts from their chains.
    call.decisions.push({ policy: 'budget', decision: waited ? 'waited' : 'allowed', reason: waited ? `polite delay ${Math.round(waited)} ms` : undefined, details: { admitted_at: verdict.admittedAt } });
    return next();
  };
}
