// Per-provider circuit breaker and day/month quotas. The state lives in a
// StateBackend: a small JSON file under the workspace (embedded store; on disk
// rather than in memory because a quota is a budget across runs, and a
// provider that failed three times a minute ago is still down for the next
// process), or Redis, shared by every host ([store] url). An unreachable store
// refuses the request (budget_exceeded, reason store_unavailable): a quota is
// never assumed unspent.
import { join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { StoreUnavailable } from '../store/types.js';
import { FileStateBackend } from './provider-state-file.js';

export interface Limits { daily_quota?: number; monthly_quota?: number }
interface BreakerSettings { failures: number; openMs: number }

interface ProviderRecord { day: string; day_count: number; month: string; month_count: number; failures: number; open_until: number }
export type StateFile = Record<string, ProviderRecord>;

/** Where the state is kept. update() runs `change` on the current state and saves it, atomically for this backend's readers. */
export interface StateBackend {
  update<T>(change: (s: StateFile) => T): Promise<T>;
  read(): Promise<StateFile>;
}

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const utcMonth = (t: number) => new Date(t).toISOString().slice(0, 7);
const nextUtcDay = (t: number) => { const d = new Date(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1); };
const nextUtcMonth = (t: number) => { const d = new Date(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1); };

export class ProviderState {
  private readonly backend: StateBackend;

  /** `where`: the JSON file (embedded) or a backend such as the Redis one. */
  constructor(where: string | StateBackend, private readonly breaker: BreakerSettings, private readonly now: () => number = Date.now) {
    this.backend = typeof where === 'string' ? new FileStateBackend(where) : where;
  }

  static forWorkspace(workspace: string, breaker: BreakerSettings): ProviderState {
    return new ProviderState(join(workspace, 'provider-state.json'), breaker);
  }

  /**
   * Before a request: refuses when the provider's circuit is open or its quota
   * is spent (nothing is sent then), else counts the request against the quota.
   */
  async begin(provider: string, limits: Limits): Promise<void> {
    try {
      await this.backend.update((s) => this.count(s, provider, limits));
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) throw err;
      throw new WebcapError('budget_exceeded', `${provider}: the quota and breaker state cannot be read (${err.message}); refused rather than risk an unbudgeted request`, { provider, reason: 'store_unavailable' });
    }
  }

  private count(s: StateFile, provider: string, limits: Limits): void {
    const now = this.now();
    const r = this.entry(s, provider, now);
    if (r.open_until > now) {
      const retry = r.open_until - now;
      throw new WebcapError('provider_error', `${provider} is paused after repeated failures (circuit open); retry in ${retry} ms`, { provider, reason: 'circuit_open', retry_after_ms: retry });
    }
    if (limits.daily_quota !== undefined && r.day_count >= limits.daily_quota) {
      const retry = nextUtcDay(now) - now;
      throw new WebcapError('budget_exceeded', `${provider} daily quota of ${limits.daily_quota} requests is spent; retry in ${retry} ms (next UTC day)`, { provider, budget: 'daily_quota', limit: limits.daily_quota, retry_after_ms: retry });
    }
    if (limits.monthly_quota !== undefined && r.month_count >= limits.monthly_quota) {
      const retry = nextUtcMonth(now) - now;
      throw new WebcapError('budget_exceeded', `${provider} monthly quota of ${limits.monthly_quota} requests is spent; retry in ${retry} ms (next UTC month)`, { provider, budget: 'monthly_quota', limit: limits.monthly_quota, retry_after_ms: retry });
    }
    r.day_count += 1;
    r.month_count += 1;
  }

  // After a request: an unavailable store loses this breaker update (the request already happened).
  succeeded(provider: string): Promise<void> {
    return this.update(undefined, (s) => {
      const r = this.entry(s, provider, this.now());
      r.failures = 0;
      r.open_until = 0;
    });
  }

  /**
   * After a failed request. The circuit opens once `failures` in a row have
   * failed; when it closes again the next request is a trial, and one more
   * failure reopens it. A provider that named a Retry-After is paused that long.
   */
  failed(provider: string, retryAfterMs?: number): Promise<{ opened: boolean }> {
    return this.update({ opened: false }, (s) => {
      const now = this.now();
      const r = this.entry(s, provider, now);
      r.failures += 1;
      const until = Math.max(r.failures >= this.breaker.failures ? now + this.breaker.openMs : 0, retryAfterMs ? now + retryAfterMs : 0);
      if (until > r.open_until) r.open_until = until;
      return { opened: r.open_until > now };
    });
  }

  snapshot(): Promise<StateFile> {
    return this.backend.read();
  }

  private entry(s: StateFile, provider: string, now: number): ProviderRecord {
    const r = (s[provider] ??= { day: utcDay(now), day_count: 0, month: utcMonth(now), month_count: 0, failures: 0, open_until: 0 });
    if (r.day !== utcDay(now)) { r.day = utcDay(now); r.day_count = 0; }
    if (r.month !== utcMonth(now)) { r.month = utcMonth(now); r.month_count = 0; }
    return r;
  }

  private update<T>(ifUnavailable: T, change: (s: StateFile) => T): Promise<T> {
    return this.backend.update(change).catch((err: unknown) => {
      if (err instanceof StoreUnavailable) return ifUnavailable;
      throw err;
    });
  }
}
