// A site profile's polite delay: at least min_delay_ms (+ random jitter)
// between two actions on the same host. Waits, never fails.
import type { SiteProfile } from './profiles.js';
import { profileFor } from './profiles.js';

export function politeness(profiles: SiteProfile[]) {
  const last = new Map<string, number>();
  return async (url: string): Promise<void> => {
    const profile = profileFor(profiles, url);
    const rate = profile?.rate;
    if (!rate?.min_delay_ms && !rate?.jitter_ms) return;
    const host = new URL(url).hostname;
    const gap = (rate.min_delay_ms ?? 0) + Math.random() * (rate.jitter_ms ?? 0);
    const wait = (last.get(host) ?? 0) + gap - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last.set(host, Date.now());
  };
}
