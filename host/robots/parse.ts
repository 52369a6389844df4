// robots.txt → groups, as RFC 9309 §2.1–2.2 and Google's parser read it:
// lines split on CR, LF or CRLF; '#' starts a comment; a key and its value
// are split by ':' (or, Google's leniency for old files, by whitespace when
// the line is exactly two words); keys are case-insensitive and a few common
// misspellings count ("dissallow", "useragent"); consecutive user-agent lines
// share one group, which ends at the next user-agent line after a rule; rules
// before any user-agent line belong to no group. Crawl-delay belongs to its
// group like a rule; other lines (sitemap, unknown keys) neither end a group
// nor start one.

export interface Rule { allow: boolean; pattern: string; /** The line as written (comment dropped), to quote. */ line: string }
export interface Group { agents: string[]; rules: Rule[]; crawlDelaySeconds?: number }

const KEYS: Record<string, 'user-agent' | 'allow' | 'disallow' | 'crawl-delay'> = {
  'user-agent': 'user-agent', useragent: 'user-agent', 'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow', dissallow: 'disallow', dissalow: 'disallow', disalow: 'disallow', diasllow: 'disallow', disallaw: 'disallow',
  'crawl-delay': 'crawl-delay',
};

function keyAndValue(raw: string): [string, string] | undefined {
  const line = raw.replace(/#.*/, '').trim();
  if (!line) return undefined;
  const colon = line.indexOf(':');
  if (colon >= 0) return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  const words = line.split(/[ \t]+/);
  return words.length === 2 ? [words[0].toLowerCase(), words[1]] : undefined;
}

export function parseRobots(body: string): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let sawRule = false;
  // A UTF-8 byte order mark is not part of the first key.
  for (const raw of body.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const kv = keyAndValue(raw);
    if (!kv) continue;
    const key = KEYS[kv[0]];
    const value = kv[1];
    if (key === 'user-agent') {
      if (!current || sawRule) { current = { agents: [], rules: [] }; groups.push(current); sawRule = false; }
      current.agents.push(value);
    } else if ((key === 'allow' || key === 'disallow') && current) {
      sawRule = true;
      current.rules.push({ allow: key === 'allow', pattern: value, line: raw.replace(/#.*/, '').trim() });
    } else if (key === 'crawl-delay' && current) {
      // A group's own record, like a rule: a user-agent line after it starts the next group.
      sawRule = true;
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = seconds;
    }
  }
  return groups;
}

/**
 * The product token a group line names: its leading run of letters, '_' and
 * '-' (Google; RFC 9309 §2.2.1), so "FOO BAR" and "Foo/1.2" both name "foo".
 * '*' names every crawler without a group of its own.
 */
export function productToken(value: string): string {
  if (/^\*(\s|$)/.test(value)) return '*';
  return (/^[A-Za-z_-]+/.exec(value.trim())?.[0] ?? '').toLowerCase();
}
