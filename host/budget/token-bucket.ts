// The per-minute budget as a sliding window: at most `perMinute` actions in
// any 60 s. A refilling token bucket would let a 61st action through after a
// few seconds; users read "60 per minute" literally, so we count exactly.
export class TokenBucket {
  private readonly stamps: number[] = [];

  constructor(readonly perMinute: number, _now?: number) {}

  private expire(now: number): void {
    while (this.stamps.length && now - this.stamps[0] >= 60_000) this.stamps.shift();
  }

  /** Whether an action may run now, without counting it. */
  peek(now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    this.expire(now);
    if (this.stamps.length < this.perMinute) return { ok: true };
    return { ok: false, retryAfterMs: Math.max(1, this.stamps[0] + 60_000 - now) };
  }

  take(now: number): void {
    this.expire(now);
    this.stamps.push(now);
  }
}
