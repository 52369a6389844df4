// The answer path shared by web.search and web.places.search: a fresh cache
// entry, else each source in turn (behind its circuit breaker and quota),
// else — when allowed — a stale cache entry, else one error that says what
// every source did.
import type { Logger } from 'pino';
import { WebcapError, toWebcapError, type ErrorCode } from '../../manifests/errors.js';
import type { ResultCache } from '../cache/result-cache.js';
import type { Limits, ProviderState } from './provider-state.js';

export interface Candidate<T> {
  source: string;
  /** Breaker/quota bucket (places: every source runs on Apify). */
  provider: string;
  cacheKey: string;
  limits: Limits;
  /** Throws when the source cannot be used at all (no key): no request, no failure counted. */
  ready(): void;
  fetch(): Promise<T>;
}

interface Attempt { source: string; code: ErrorCode; message: string; retry_after_ms?: number }

export interface Answer<T> {
  value: T;
  source: string;
  cached: boolean;
  stale: boolean;
  age_ms?: number;
  failed: Attempt[];
}

export interface FallbackOptions {
  cache: ResultCache;
  /** false: skip cache reads (the fresh answer is still stored). */
  readCache: boolean;
  /** Serve an expired entry when every source failed. */
  staleFallback: boolean;
  state: ProviderState;
  log: Logger;
  capability: string;
}

export async function answer<T>(candidates: Array<Candidate<T>>, opts: FallbackOptions): Promise<Answer<T>> {
  const stale: Array<{ source: string; value: T; age_ms: number }> = [];
  if (opts.readCache) {
    for (const c of candidates) {
      const hit = await opts.cache.get<T>(c.cacheKey);
      if (hit && !hit.stale) return { value: hit.value, source: c.source, cached: true, stale: false, age_ms: hit.age_ms, failed: [] };
      if (hit) stale.push({ source: c.source, value: hit.value, age_ms: hit.age_ms });
    }
  }
  const failures: Failure[] = [];
  for (const c of candidates) {
    try {
      c.ready();
      await opts.state.begin(c.provider, c.limits);
    } catch (err) {
      failures.push({ source: c.source, error: toWebcapError(err) });
      continue;
    }
    const started = Date.now();
    try {
      const value = await c.fetch();
      await opts.state.succeeded(c.provider);
      await opts.cache.set(c.cacheKey, value).catch((e: unknown) => opts.log.warn({ err: String(e) }, 'could not write the cache'));
      opts.log.info({ capability: opts.capability, source: c.source, ms: Date.now() - started }, 'provider answered');
      return { value, source: c.source, cached: false, stale: false, failed: failures.map(attemptOf) };
    } catch (err) {
      const error = toWebcapError(err);
      // A 429 names how long to stay away: the breaker honours it even before three failures.
      const retry = error.code === 'budget_exceeded' ? retryAfter(error) : undefined;
      const { opened } = await opts.state.failed(c.provider, retry);
      opts.log.warn({ capability: opts.capability, source: c.source, code: error.code, message: error.message, opened, ms: Date.now() - started }, 'provider failed');
      failures.push({ source: c.source, error });
    }
  }
  if (opts.staleFallback && stale.length) {
    const s = stale[0];
    return { value: s.value, source: s.source, cached: true, stale: true, age_ms: s.age_ms, failed: failures.map(attemptOf) };
  }
  throw combined(failures, opts.capability);
}

interface Failure { source: string; error: WebcapError }

const retryAfter = (e: WebcapError) => (typeof e.details.retry_after_ms === 'number' ? e.details.retry_after_ms : undefined);

function attemptOf({ source, error }: Failure): Attempt {
  const retry = retryAfter(error);
  return { source, code: error.code, message: error.message, ...(retry === undefined ? {} : { retry_after_ms: retry }) };
}

function combined(failures: Failure[], capability: string): WebcapError {
  if (failures.length === 1) return failures[0].error;
  const attempts = failures.map(attemptOf);
  const summary = attempts.map((a) => `${a.source}: ${a.message.replace(`${capability}: `, '')}`).join('; ');
  const retries = attempts.map((a) => a.retry_after_ms);
  const retry = retries.every((r) => typeof r === 'number') ? Math.min(...(retries as number[])) : undefined;
  const same = attempts.every((a) => a.code === attempts[0].code) ? attempts[0].code : undefined;
  // Every source out of budget, or none configured: say so with that code; otherwise a provider failure.
  const code: ErrorCode = same === 'budget_exceeded' || same === 'capability_disabled' ? same : 'provider_error';
  return new WebcapError(code, `${capability}: every source failed (${summary})`, { attempts, ...(retry === undefined ? {} : { retry_after_ms: retry }) });
}
