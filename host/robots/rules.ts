// robots-parser with the places it departs from RFC 9309 fixed around it:
//  - percent-encoding: it upper-cases %xx but treats %7E and ~ as different;
//    RFC 9309 §2.2.2 says an encoded unreserved character equals itself, so
//    both the patterns and the path are normalised before matching;
//  - it reports a line number, not the rule: we quote the line, so
//    robots_disallowed can name the rule that matched;
//  - it reads files of any size: we stop at 500 KiB (§2.5).
import { createRequire } from 'node:module';

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
}
// A CommonJS module whose typings don't fit NodeNext's default import.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, body: string) => Robot;

const UNRESERVED = /%(2[dDeE]|3[0-9]|4[1-9a-fA-F]|5[0-9aA]|5[fF]|6[1-9a-fA-F]|7[0-9aA]|7[eE])/g;
export const MAX_ROBOTS_BYTES = 500 * 1024;

/** %41 → A, %7e → ~ (unreserved), other escapes upper-cased (%2f → %2F). */
export function normalisePath(path: string): string {
  return path.replace(UNRESERVED, (m) => String.fromCharCode(parseInt(m.slice(1), 16)))
    .replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}

export interface RobotsVerdict { allowed: boolean; rule?: string; crawlDelayMs?: number }

export class RobotsRules {
  private readonly parser: Robot;
  private readonly lines: string[];

  constructor(private readonly origin: string, body: string) {
    const text = body.slice(0, MAX_ROBOTS_BYTES);
    this.lines = text.split(/\r\n|\r|\n/);
    const normalised = this.lines.map((line) => line.replace(/^(\s*(?:dis)?allow\s*:\s*)(\S*)/i, (_m, head: string, pattern: string) => head + normalisePath(pattern)));
    this.parser = robotsParser(`${origin}/robots.txt`, normalised.join('\n'));
  }

  check(url: URL, userAgent: string): RobotsVerdict {
    const target = `${this.origin}${normalisePath(url.pathname)}${url.search}`;
    const allowed = this.parser.isAllowed(target, userAgent) !== false;
    const line = this.parser.getMatchingLineNumber(target, userAgent);
    const rule = line && line > 0 ? this.lines[line - 1].replace(/#.*/, '').trim() : undefined;
    const delay = this.parser.getCrawlDelay(userAgent);
    return { allowed, rule, crawlDelayMs: delay === undefined ? undefined : Math.round(delay * 1000) };
  }
}
