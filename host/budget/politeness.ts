// Politeness waits, never fails: a per-host minimum gap between actions
// (robots.txt Crawl-delay feeds it) plus random jitter ([budgets] jitter_ms).
import type { WebcapConfig } from '../config/types.js';

export class PolitenessGate {
  private readonly minDelay = new Map<string, number>();
  private readonly lastAction = new Map<string, number>();

  constructor(private readonly config: Pick<WebcapConfig, 'budgets'>, private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))) {}

  setMinDelay(host: string, ms: number): void {
    this.minDelay.set(host.toLowerCase(), ms);
  }

  /** Resolves when this host may be acted on; returns how long it waited. */
  async wait(host: string | undefined): Promise<number> {
    const jitter = this.config.budgets.jitter_ms ? Math.random() * this.config.budgets.jitter_ms : 0;
    if (!host) {
      if (jitter) await this.sleep(jitter);
      return jitter;
    }
    const key = host.toLowerCase();
    const gap = this.minDelay.get(key) ?? 0;
    const last = this.lastAction.get(key);
    const due = last === undefined ? 0 : last + gap - this.now();
    const waitMs = Math.max(0, due) + jitter;
    // Reserve the slot before sleeping so concurrent calls queue behind each other.
    this.lastAction.set(key, this.now() + waitMs);
    if (waitMs > 0) await this.sleep(waitMs);
    return waitMs;
  }
}
