// robots.txt before every navigation (respect_robots = true). Crawl-delay
// becomes the host's minimum gap in the politeness gate (which caps it and
// keys it by the normalised host, so "shop.test." shares "shop.test"'s gap).
import { WebcapError } from '../../manifests/errors.js';
import type { PolitenessGate } from '../budget/politeness.js';
import type { WebcapConfig } from '../config/types.js';
import type { RobotsCache } from '../robots/robots.js';
import { orRefuse } from '../store/refusal.js';
import type { Policy } from './types.js';

export function robotsPolicy(cache: RobotsCache, config: WebcapConfig, politeness?: PolitenessGate): Policy {
  return async (call, next) => {
    const url = call.url;
    if (!url || !config.capabilities.browser.respect_robots || !/^https?:$/.test(url.protocol)) return next();
    const verdict = await orRefuse(call, 'robots', `robots.txt of ${url.origin}`, () => cache.check(url));
    if (verdict.crawlDelayMs !== undefined) politeness?.setMinDelay(url.hostname, verdict.crawlDelayMs);
    if (!verdict.allowed) {
      call.decisions.push({ policy: 'robots', decision: 'denied', reason: verdict.reason, details: { rule: verdict.rule } });
      throw new WebcapError('robots_disallowed', `robots.txt of ${url.origin} disallows ${url.pathname} (rule "${verdict.rule}")`, { rule: verdict.rule, url: url.href });
    }
    call.decisions.push({ policy: 'robots', decision: 'allowed', reason: verdict.reason });
    return next();
  };
}
