// Politeness waits: a per-host minimum gap between actions (robots.txt
// Crawl-delay feeds it) plus random jitter ([budgets] jitter_ms). A wait
// longer than the call may take is refused up front (budgetPolicy turns it
// into budget_exceeded with retry_after_ms) rather than slept through.
import { normalizeHost } from '../../manifests/net/hostname.js';
import type { WebcapConfig } from '../config/types.js';
import type { SiteRate } from './site-rates.js';

/** Crawl-delay honoured up to this: "Crawl-delay: 86400" must not park the agent for a day. */
export const MAX_CRAWL_DELAY_MS = 60_000;

export class PolitenessGate {
  private readonly minDelay = new Map<string, number>();
  private readonly lastAction = new Map<string, number>();

  constructor(private readonly config: Pick<WebcapConfig, 'budgets'>, private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** Site-profile rates: only a shared store's clock uses them (gapFor/jitterFor); locally the sidecar applies them. */
    private readonly siteRate?: (host: string) => SiteRate | undefined) {}

  setMinDelay(host: string, ms: number): void {
    this.minDelay.set(normalizeHost(host), Math.min(Math.max(0, ms), MAX_CRAWL_DELAY_MS));
  }

  /** The minimum gap for this host (Crawl-delay capped, or the site profile's min_delay_ms if longer); a shared store keeps the clock, this the rule. */
  gapFor(host: string): number {
    const key = normalizeHost(host);
    return Math.max(this.minDelay.get(key) ?? 0, Math.min(this.siteRate?.(key)?.min_delay_ms ?? 0, MAX_CRAWL_DELAY_MS));
  }

  /** A fresh random jitter in [0, jitter_ms) ([budgets] jitter_ms, or the site profile's if larger). */
  jitterFor(host: string | undefined): number {
    const most = Math.max(this.config.budgets.jitter_ms, (host && this.siteRate?.(normalizeHost(host))?.jitter_ms) || 0);
    return most ? Math.random() * most : 0;
  }

  /** A fresh random jitter in [0, jitter_ms). */
  jitter(): number {
    return this.config.budgets.jitter_ms ? Math.random() * this.config.budgets.jitter_ms : 0;
  }

  /** Sleeps with the gate's clock (tests inject one). */
  pause(ms: number): Promise<void> {
    return ms > 0 ? this.sleep(ms) : Promise.resolve();
  }

  /** How long an action on this host would wait now for its minimum gap (jitter not included). */
  delayFor(host: string | undefined): number {
    if (!host) return 0;
    const key = normalizeHost(host);
    const last = this.lastAction.get(key);
    return last === undefined ? 0 : Math.max(0, last + (this.minDelay.get(key) ?? 0) - this.now());
  }

  /** Resolves when this host may be acted on; returns how long it waited. */
  async wait(host: string | undefined): Promise<number> {
    const jitter = this.jitter();
    if (!host) {
      if (jitter) await this.sleep(jitter);
      return jitter;
    }
    const waitMs = this.delayFor(host) + jitter;
    // Reserve the slot before sleeping so concurrent calls queue behind each other.
    this.lastAction.set(normalizeHost(host), this.now() + waitMs);
    if (waitMs > 0) await this.sleep(waitMs);
    return waitMs;
  }
}
