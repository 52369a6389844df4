// robots.txt per origin, cached for [robots] cache_ttl_s, fetched with the
// configured user agent through `[network] resolve` and the network policy.
// With a shared store ([store] url) the fetched answer is also kept there, so
// the hosts of a fleet fetch each robots.txt once per TTL between them.
import { WebcapError } from '../../manifests/errors.js';
import type { WebcapConfig } from '../config/types.js';
import { normalizeHost } from '../../manifests/net/hostname.js';
import type { SharedValues } from '../store/types.js';
import { fetchRobots, type RobotsFetch } from './fetch.js';
import { RobotsRules, type RobotsVerdict } from './rules.js';

interface Cached { at: number; fetched: RobotsFetch; rules?: RobotsRules }

/** Origins remembered at once; the oldest is dropped past it, so a crawl over many hosts cannot grow the map without end. */
export const MAX_CACHED_ORIGINS = 1000;

/** "http://Shop.Test.:80" → "http://shop.test": one origin however the host is spelled (trailing dot included). */
function robotsOrigin(url: URL): string {
  const host = normalizeHost(url.hostname);
  return `${url.protocol}//${host.includes(':') ? `[${host}]` : host}${url.port ? `:${url.port}` : ''}`;
}

export class RobotsCache {
  private readonly cache = new Map<string, Promise<Cached>>();
  private readonly now: () => number;
  private readonly fetcher: typeof fetchRobots;
  private readonly shared?: SharedValues;

  constructor(private readonly config: WebcapConfig, opts: { now?: () => number; fetch?: typeof fetchRobots; shared?: SharedValues } = {}) {
    this.now = opts.now ?? Date.now;
    this.fetcher = opts.fetch ?? fetchRobots;
    this.shared = opts.shared;
  }

  get size(): number { return this.cache.size; }

  async check(url: URL): Promise<RobotsVerdict & { reason: string }> {
    const entry = await this.load(robotsOrigin(url));
    const { fetched } = entry;
    if (fetched.kind === 'allow_all') return { allowed: true, reason: fetched.reason };
    if (fetched.kind === 'unreachable') {
      this.cache.delete(robotsOrigin(url)); // the site may be up on the next try
      throw new WebcapError('navigation_failed', `cannot reach ${fetched.host}: ${fetched.reason}`, { host: fetched.host, reason: fetched.reason, url: url.href });
    }
    if (fetched.kind === 'disallow_all') return { allowed: false, rule: 'Disallow: / (robots.txt unreachable)', reason: fetched.reason };
    const verdict = entry.rules!.check(url, this.config.capabilities.browser.user_agent);
    return { ...verdict, reason: verdict.rule ? `matched "${verdict.rule}"` : 'no rule matched' };
  }

  private load(origin: string): Promise<Cached> {
    const ttl = this.config.robots.cache_ttl_s * 1000;
    const hit = this.cache.get(origin);
    if (hit) {
      return hit.then((c) => (this.now() - c.at < ttl ? c : this.refetch(origin)));
    }
    return this.refetch(origin);
  }

  private refetch(origin: string): Promise<Cached> {
    const pending = this.fromShared(origin).then((c) => c ?? this.fetchAndShare(origin))
      .then(({ at, fetched }) => ({ at, fetched, rules: fetched.kind === 'rules' ? new RobotsRules(origin, fetched.body) : undefined }));
    // Re-inserted so Map order is "least recently fetched first" for eviction.
    this.cache.delete(origin);
    this.cache.set(origin, pending);
    if (this.cache.size > MAX_CACHED_ORIGINS) this.cache.delete(this.cache.keys().next().value as string);
    // A failure is not remembered: the next call for this origin tries again.
    pending.catch(() => { if (this.cache.get(origin) === pending) this.cache.delete(origin); });
    return pending;
  }

  /**
   * Another host's fresh answer. A store that cannot answer throws
   * StoreUnavailable (the call is refused, never checked against nothing);
   * a value that is not a robots answer is ignored and the file fetched again.
   */
  private async fromShared(origin: string): Promise<Omit<Cached, 'rules'> | undefined> {
    const text = await this.shared?.get(`robots:${origin}`);
    if (!text) return undefined;
    let c: unknown;
    try { c = JSON.parse(text); } catch { return undefined; }
    if (!isSharedAnswer(c)) return undefined;
    return this.now() - c.at < this.config.robots.cache_ttl_s * 1000 ? c : undefined;
  }

  private async fetchAndShare(origin: string): Promise<Omit<Cached, 'rules'>> {
    const { browser } = this.config.capabilities;
    const fetched = await this.fetcher(origin, {
      headers: { 'user-agent': browser.user_agent },
      timeoutMs: this.config.robots.fetch_timeout_ms,
      resolve: this.config.network.resolve,
      ignoreHttpsErrors: browser.ignore_https_errors,
      policy: { allowlist: browser.domains_allowlist, denylist: browser.domains_denylist, allowPrivate: this.config.network.allow_private },
    });
    const entry = { at: this.now(), fetched };
    const ttl = this.config.robots.cache_ttl_s * 1000;
    // A store that refuses the write (full, read-only) refuses the call too: the fleet would otherwise
    // fetch the file on every call, and a store that cannot keep state cannot keep budgets either.
    if (ttl > 0) await this.shared?.set(`robots:${origin}`, JSON.stringify(entry), ttl);
    return entry;
  }
}

const KINDS = new Set(['rules', 'allow_all', 'disallow_all', 'unreachable']);

function isSharedAnswer(c: unknown): c is Omit<Cached, 'rules'> {
  if (!c || typeof c !== 'object') return false;
  const { at, fetched } = c as { at?: unknown; fetched?: { kind?: unknown; body?: unknown } };
  if (typeof at !== 'number' || !fetched || typeof fetched !== 'object' || !KINDS.has(fetched.kind as string)) return false;
  return fetched.kind !== 'rules' || typeof fetched.body === 'string';
}
