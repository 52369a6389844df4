// The budgets and the politeness clock in Redis, for every host at once. One
// Lua script checks every bucket, checks the host's next free slot, and only
// if all pass takes a token from each and reserves the slot: atomic on the
// server, one round trip per call. Time is Redis's own (TIME), so hosts on
// machines whose clocks disagree still share one clock.
//
// Buckets are exact sliding windows (a sorted set of admission times, the
// ones older than the window trimmed), like the embedded TokenBucket: at most
// N admissions in any minute, hour or day, no burst. rate-limiter-flexible was considered;
// its Redis limiters are fixed windows or refilling buckets, which let up to
// 2N through around a window edge, and "30 per minute" is read literally.
import type { RedisConnection } from '../store/redis-connection.js';
import { StoreUnavailable } from '../store/types.js';
import type { Admission, AdmitRequest, AdmitVerdict } from './admission.js';
import type { PolitenessGate } from './politeness.js';

// KEYS: n bucket keys, then the host's politeness key (optional).
// ARGV: n, n limits, n windows (ms), member, gap ms, jitter ms, max wait ms.
// Returns {1, 0, wait, now} admitted; {0, i, retry, now} bucket i full; {-1, 0, due, now} slot too far.
//
// Every check reads; the first write is one Redis refuses when out of memory
// (SET, ZADD). Redis lets a script that has already written carry on past
// maxmemory (so it never stops half-way), and counts even a trim that removed
// nothing as a write: a script that trimmed first was admitted under
// noeviction with memory full. Trimming comes last for that reason.
export const ADMIT_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
for i = 1, n do
  local limit = tonumber(ARGV[1 + i])
  local window = tonumber(ARGV[1 + n + i])
  local since = '(' .. string.format('%d', now - window)
  local count = redis.call('ZCOUNT', KEYS[i], since, '+inf')
  if count >= limit then
    -- The admission whose expiry frees a slot: the (count - limit)-th oldest inside the window.
    local freeing = redis.call('ZRANGEBYSCORE', KEYS[i], since, '+inf', 'WITHSCORES', 'LIMIT', count - limit, 1)
    local retry = tonumber(freeing[2]) + window - now
    if retry < 1 then retry = 1 end
    return {0, i, retry, now}
  end
end
local member = ARGV[2 * n + 2]
local gap = tonumber(ARGV[2 * n + 3])
local jitter = tonumber(ARGV[2 * n + 4])
local maxWait = tonumber(ARGV[2 * n + 5])
local wait = 0
if #KEYS > n then
  local last = redis.call('GET', KEYS[n + 1])
  if last then wait = math.max(0, tonumber(last) + gap - now) end
  if wait > maxWait then return {-1, 0, wait, now} end
  wait = wait + jitter
  redis.call('SET', KEYS[n + 1], string.format('%d', now + wait), 'PX', wait + gap + 60000)
end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, member)
end
for i = 1, n do
  local window = tonumber(ARGV[1 + n + i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  redis.call('PEXPIRE', KEYS[i], window)
end
return {1, 0, wait, now}
`;

type AdmitCommand = (...args: Array<string | number>) => Promise<number[]>;

let sequence = 0;

export class RedisAdmission implements Admission {
  constructor(private readonly redis: RedisConnection, private readonly politeness: PolitenessGate | undefined) {
    redis.define('webcapAdmit', ADMIT_LUA);
  }

  async admit(req: AdmitRequest): Promise<AdmitVerdict> {
    // The window is part of the key: a per-minute and a per-day budget of the same name never share a set.
    const keys = req.buckets.map((b) => `budget:${b.name}${b.windowMs === 60_000 ? '' : `@${b.windowMs}`}`);
    if (req.host) keys.push(`polite:${req.host}`);
    const gap = req.host ? Math.round(this.politeness?.gapFor(req.host) ?? 0) : 0;
    const jitter = Math.round(this.politeness?.jitterFor(req.host) ?? 0);
    // Unique per admission, so two hosts admitted in the same millisecond are two entries.
    const member = `${process.pid}:${++sequence}:${Math.random().toString(36).slice(2, 8)}`;
    const args = [req.buckets.length, ...req.buckets.map((b) => b.limit), ...req.buckets.map((b) => b.windowMs), member, gap, jitter, Math.floor(req.maxWaitMs)];
    const [status, index, ms, now] = await this.redis.run(async (c) => checkedReply(await (c as unknown as Record<string, AdmitCommand>).webcapAdmit(keys.length, ...keys, ...args), req.buckets.length));
    if (status === 0) return { ok: false, kind: 'budget', bucket: req.buckets[index - 1], retryAfterMs: ms };
    if (status === -1) return { ok: false, kind: 'politeness', dueMs: ms };
    if (!req.host && jitter) await this.sleep(jitter);
    else if (ms > 0) await this.sleep(ms);
    return { ok: true, waitedMs: req.host ? ms : jitter, admittedAt: now };
  }

  private sleep(ms: number): Promise<void> {
    return this.politeness ? this.politeness.pause(ms) : new Promise((r) => setTimeout(r, ms));
  }
}

/** The script's answer, or StoreUnavailable: a reply of another shape is never read as "admitted". */
function checkedReply(reply: unknown, buckets: number): [number, number, number, number] {
  const ok = Array.isArray(reply) && reply.length === 4 && reply.every((v) => Number.isSafeInteger(v))
    && [1, 0, -1].includes(reply[0] as number) && (reply[0] !== 0 || (reply[1] >= 1 && reply[1] <= buckets));
  if (!ok) throw new StoreUnavailable(`the admission script answered ${JSON.stringify(reply)?.slice(0, 80)}, not a verdict`);
  return reply as [number, number, number, number];
}
