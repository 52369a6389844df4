// Admission: may this call spend a token from each of its buckets, and when
// may it act on its host? Checked and taken in one step (all buckets or none,
// so a refusal costs nothing), then the politeness slot is reserved and
// waited for. The embedded admission keeps the buckets in this process; the
// Redis one (redis-admission.ts) runs the same rules server-side for every host.
import type { PolitenessGate } from './politeness.js';
import { TokenBucket } from './token-bucket.js';

/** At most `limit` admissions in any `windowMs` (WINDOWS: a minute, an hour, a day). */
export interface BucketSpec { name: string; limit: number; windowMs: number }

export const WINDOWS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

export interface AdmitRequest {
  buckets: BucketSpec[];
  /** Normalised hostname the call acts on, if any. */
  host?: string;
  /** A politeness wait longer than this is refused instead of slept through. */
  maxWaitMs: number;
}

export type AdmitVerdict =
  | { ok: true; waitedMs: number; admittedAt: number }
  | { ok: false; kind: 'budget'; bucket: BucketSpec; retryAfterMs: number }
  | { ok: false; kind: 'politeness'; dueMs: number };

export interface Admission {
  /** Resolves once the call may act (after any politeness wait). Throws StoreUnavailable when the store cannot answer. */
  admit(req: AdmitRequest): Promise<AdmitVerdict>;
}

export class EmbeddedAdmission implements Admission {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly politeness: PolitenessGate | undefined, private readonly now: () => number = Date.now) {}

  async admit(req: AdmitRequest): Promise<AdmitVerdict> {
    const t = this.now();
    const buckets = req.buckets.map((spec) => [spec, this.bucket(spec)] as const);
    for (const [spec, b] of buckets) {
      const verdict = b.peek(t);
      if (!verdict.ok) return { ok: false, kind: 'budget', bucket: spec, retryAfterMs: verdict.retryAfterMs };
    }
    const due = this.politeness?.delayFor(req.host) ?? 0;
    if (due > req.maxWaitMs) return { ok: false, kind: 'politeness', dueMs: due };
    buckets.forEach(([, b]) => b.take(t));
    const waitedMs = (await this.politeness?.wait(req.host)) ?? 0;
    return { ok: true, waitedMs, admittedAt: t };
  }

  private bucket(spec: BucketSpec): TokenBucket {
    let b = this.buckets.get(spec.name);
    if (!b) this.buckets.set(spec.name, (b = new TokenBucket(spec.limit, spec.windowMs)));
    return b;
  }
}
