// Per-provider circuit breaker and day/month quotas, kept in one small JSON
// file under the workspace. On disk rather than in memory because a quota is a
// budget across runs (each `webcap call` is a new process) and a provider that
// failed three times a minute ago is still down for the next process.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';

export interface Limits { daily_quota?: number; monthly_quota?: number }
export interface BreakerSettings { failures: number; openMs: number }

interface Record_ { day: string; day_count: number; month: string; month_count: number; failures: number; open_until: number }
type StateFile = Record<string, Record_>;

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const utcMonth = (t: number) => new Date(t).toISOString().slice(0, 7);
const nextUtcDay = (t: number) => { const d = new Date(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1); };
const nextUtcMonth = (t: number) => { const d = new Date(t); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1); };

export class ProviderState {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string, private readonly breaker: BreakerSettings, private readonly now: () => number = Date.now) {}

  static forWorkspace(workspace: string, breaker: BreakerSettings): ProviderState {
    return new ProviderState(join(workspace, 'provider-state.json'), breaker);
  }

  /**
   * Before a request: refuses when the provider's circuit is open or its quota
   * is spent (nothing is sent then), else counts the request against the quota.
   */
  begin(provider: string, limits: Limits): Promise<void> {
    return this.update((s) => {
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
    });
  }

  succeeded(provider: string): Promise<void> {
    return this.update((s) => {
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
    return this.update((s) => {
      const now = this.now();
      const r = this.entry(s, provider, now);
      r.failures += 1;
      const until = Math.max(r.failures >= this.breaker.failures ? now + this.breaker.openMs : 0, retryAfterMs ? now + retryAfterMs : 0);
      if (until > r.open_until) r.open_until = until;
      return { opened: r.open_until > now };
    });
  }

  snapshot(): StateFile {
    return this.read();
  }

  private entry(s: StateFile, provider: string, now: number): Record_ {
    const r = (s[provider] ??= { day: utcDay(now), day_count: 0, month: utcMonth(now), month_count: 0, failures: 0, open_until: 0 });
    if (r.day !== utcDay(now)) { r.day = utcDay(now); r.day_count = 0; }
    if (r.month !== utcMonth(now)) { r.month = utcMonth(now); r.month_count = 0; }
    return r;
  }

  // Serialised in this process; across processes the last writer wins, which can
  // at worst under-count a request or two — acceptable for a budget, not a bill.
  private update<T>(change: (s: StateFile) => T): Promise<T> {
    const run = this.queue.then(() => {
      const s = this.read();
      const out = change(s);
      this.write(s);
      return out;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private read(): StateFile {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as StateFile) : {};
    } catch {
      return {};
    }
  }

  private write(s: StateFile): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(s, null, 1));
    renameSync(tmp, this.file);
  }
}
