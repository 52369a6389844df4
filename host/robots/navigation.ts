// robots.txt for the navigations the host never sees: a click that follows a
// link, location.href, a meta refresh, a GET form. The sidecar asks before
// each top-level navigation leaves the browser; the answer comes from the
// same RobotsCache (and so the same store) as the web.open policy.
import type { WebcapConfig } from '../config/types.js';
import type { RobotsCache } from './robots.js';

export async function robotsForNavigation(cache: RobotsCache, config: WebcapConfig, url: string): Promise<{ allowed: boolean; reason: string; rule?: string }> {
  if (!config.capabilities.browser.respect_robots) return { allowed: true, reason: 'respect_robots = false' };
  let target: URL;
  try { target = new URL(url); } catch { return { allowed: true, reason: 'not a URL robots.txt applies to' }; }
  if (!/^https?:$/.test(target.protocol)) return { allowed: true, reason: `robots.txt does not apply to ${target.protocol}` };
  const verdict = await cache.check(target);
  return verdict.allowed ? { allowed: true, reason: verdict.reason } : { allowed: false, reason: verdict.reason, rule: verdict.rule };
}
