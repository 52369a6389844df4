// A budget as a sliding window: at most `limit` actions in any `windowMs`
// (a minute, an hour, a day). A refilling token bucket would let the 61st
// action of a minute through after a few seconds; users read "60 per minute"
// and "50 per day" literally, so we count exactly. An action at t stops
// counting at exactly t + windowMs.
export class TokenBucket {
  private readonly stamps: number[] = [];

  constructor(readonly limit: number, readonly windowMs = 60_000) {}

  private expire(now: number): void {
    while (this.stamps.length && now - this.stamps[0] >= this.windowMs) this.stamps.shift();
  }

  /** Whether an action may run now, without counting it. */
  peek(now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    this.expire(now);
    if (this.stamps.length < this.limit) return { ok: true };
    return { ok: false, retryAfterMs: Math.max(1, this.stamps[this.stamps.length - this.limit] + this.windowMs - now) };
  }

  take(now: number): void {
    this.expire(now);
    this.stamps.push(now);
  }
}
