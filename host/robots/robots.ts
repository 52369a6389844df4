// robots.txt per origin, cached for [robots] cache_ttl_s, fetched with the
// configured user agent through `[network] resolve`.
import type { WebcapConfig } from '../config/types.js';
import { fetchRobots, type RobotsFetch } from './fetch.js';
import { RobotsRules, type RobotsVerdict } from './rules.js';

interface Cached { at: number; fetched: RobotsFetch; rules?: RobotsRules }

export class RobotsCache {
  private readonly cache = new Map<string, Promise<Cached>>();
  private readonly now: () => number;

  constructor(private readonly config: WebcapConfig, opts: { now?: () => number; fetch?: typeof fetchRobots } = {}) {
    this.now = opts.now ?? Date.now;
    this.fetcher = opts.fetch ?? fetchRobots;
  }

  private readonly fetcher: typeof fetchRobots;

  async check(url: URL): Promise<RobotsVerdict & { reason: string }> {
    const entry = await this.load(url.origin);
    const { fetched } = entry;
    if (fetched.kind === 'allow_all') return { allowed: true, reason: fetched.reason };
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
    const pending = this.fetcher(origin, {
      headers: { 'user-agent': this.config.capabilities.browser.user_agent },
      timeoutMs: this.config.robots.fetch_timeout_ms,
      resolve: this.config.network.resolve,
      ignoreHttpsErrors: this.config.capabilities.browser.ignore_https_errors,
    }).then((fetched) => ({ at: this.now(), fetched, rules: fetched.kind === 'rules' ? new RobotsRules(origin, fetched.body) : undefined }));
    this.cache.set(origin, pending);
    return pending;
  }
}
