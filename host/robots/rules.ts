// robots.txt rules for one origin, to the letter of RFC 9309 and Google's
// documented matching. robots-parser is no longer used here (replaced, not
// wrapped): it picks groups by the crawler's whole user-agent string, so a
// group "User-agent: FOO BAR" never matched crawler "Foo", and it compares
// %62%61%7A and "baz" as different paths. parse.ts reads the file, match.ts
// decides a path; this file picks the groups and quotes the deciding rule.
import { decidingRule, normalisePath } from './match.js';
import { parseRobots, productToken, type Group } from './parse.js';

export { normalisePath } from './match.js';
/** RFC 9309 §2.5: crawlers may stop reading a robots.txt after 500 KiB. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

export interface RobotsVerdict { allowed: boolean; rule?: string; crawlDelayMs?: number }

/** The crawler's product token: "webcap/0.1 (+https://…)" → "webcap". */
export function crawlerToken(userAgent: string): string {
  return (/^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? '').toLowerCase();
}

export class RobotsRules {
  private readonly groups: Group[];

  constructor(_origin: string, body: string) {
    this.groups = parseRobots(truncateBytes(body, MAX_ROBOTS_BYTES));
  }

  /**
   * The groups for `userAgent`: every group naming its product token (merged,
   * RFC 9309 §2.2.1), else every '*' group. A crawler with a group of its own
   * ignores '*' even where its group has no matching rule.
   */
  groupsFor(userAgent: string): Group[] {
    const token = crawlerToken(userAgent);
    const own = token ? this.groups.filter((g) => g.agents.some((a) => productToken(a) === token)) : [];
    return own.length ? own : this.groups.filter((g) => g.agents.some((a) => productToken(a) === '*'));
  }

  check(url: URL, userAgent: string): RobotsVerdict {
    const groups = this.groupsFor(userAgent);
    const delay = groups.find((g) => g.crawlDelaySeconds !== undefined)?.crawlDelaySeconds;
    const crawlDelayMs = delay === undefined ? undefined : Math.round(delay * 1000);
    // §2.2.2: the robots.txt itself is always allowed.
    if (url.pathname === '/robots.txt') return { allowed: true, crawlDelayMs };
    const path = normalisePath(`${url.pathname || '/'}${url.search}`);
    const match = decidingRule(groups.flatMap((g) => g.rules), path);
    return { allowed: match ? match.rule.allow : true, rule: match?.rule.line, crawlDelayMs };
  }
}

function truncateBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= max ? text : bytes.subarray(0, max).toString('utf8');
}
