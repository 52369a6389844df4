// Per-minute budgets: global (max_actions_per_minute, browser actions only),
// per capability and per domain glob. A token is taken from every applicable
// bucket only when all have one, so a refusal costs nothing. Then the
// politeness gate may make the call wait; a wait longer than the call's own
// timeout is refused (budget_exceeded + retry_after_ms) before any token is taken.
import { WebcapError } from '../../manifests/errors.js';
import { hostRuleMatches, normalizeHost } from '../../manifests/net/hostname.js';
import type { PolitenessGate } from '../budget/politeness.js';
import { TokenBucket } from '../budget/token-bucket.js';
import type { WebcapConfig } from '../config/types.js';
import type { Policy } from './types.js';

export function budgetPolicy(config: WebcapConfig, opts: { now?: () => number; politeness?: PolitenessGate } = {}): Policy {
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, TokenBucket>();
  const bucket = (name: string, perMinute: number) => {
    let b = buckets.get(name);
    if (!b) buckets.set(name, (b = new TokenBucket(perMinute, now())));
    return b;
  };
  const domainRules = Object.entries(config.budgets.per_domain);

  return async (call, next) => {
    // The global bucket counts browser actions (sidecar calls, and host
    // capabilities that drive the browser such as web.scrape); per-capability
    // and per-domain budgets apply to every capability, search APIs included.
    const browser = call.manifest.provider === 'sidecar' || (call.manifest.effects ?? []).includes('browser');
    const applicable: Array<[string, TokenBucket]> = browser ? [['global', bucket('global', config.capabilities.browser.max_actions_per_minute)]] : [];
    const perCap = config.budgets.per_capability[call.capability];
    if (perCap) applicable.push([`capability:${call.capability}`, bucket(`capability:${call.capability}`, perCap)]);
    // Normalised, so "shop.test." spends the budget of "shop.test".
    const host = call.url?.hostname ? normalizeHost(call.url.hostname) : undefined;
    for (const [glob, n] of domainRules) {
      if (host && hostRuleMatches(host, glob)) applicable.push([`domain:${glob}`, bucket(`domain:${glob}`, n)]);
    }
    const t = now();
    for (const [name, b] of applicable) {
      const verdict = b.peek(t);
      if (!verdict.ok) {
        call.decisions.push({ policy: 'budget', decision: 'denied', reason: `${name} budget of ${b.perMinute}/min spent` });
        throw new WebcapError('budget_exceeded', `over the ${name} budget of ${b.perMinute} actions per minute; retry in ${verdict.retryAfterMs} ms`, { retry_after_ms: verdict.retryAfterMs, budget: name });
      }
    }
    const timeoutMs = (call.params.timeout as number | undefined) ?? config.capabilities.browser.default_timeout_ms;
    const due = applicable.length ? opts.politeness?.delayFor(host) ?? 0 : 0;
    if (due > timeoutMs) {
      const retryAfterMs = Math.ceil(due);
      call.decisions.push({ policy: 'budget', decision: 'denied', reason: `polite delay of ${retryAfterMs} ms for ${host} exceeds the call's timeout of ${timeoutMs} ms` });
      throw new WebcapError('budget_exceeded', `${host} asks for a gap between actions (robots.txt Crawl-delay); the next action is due in ${retryAfterMs} ms, longer than this call's timeout of ${timeoutMs} ms`, { retry_after_ms: retryAfterMs, budget: `politeness:${host}` });
    }
    applicable.forEach(([, b]) => b.take(t));
    if (applicable.length === 0) return next();
    const waited = await opts.politeness?.wait(host);
    call.decisions.push({ policy: 'budget', decision: waited ? 'waited' : 'allowed', reason: waited ? `polite delay ${Math.round(waited)} ms` : undefined });
    return next();
  };
}
