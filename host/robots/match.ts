// Path matching of RFC 9309 §2.2.2–2.2.3: patterns and paths compared after
// the same percent-encoding normalisation; '*' matches any run of characters
// and a final '$' anchors the end; the longest matching pattern wins, and on
// a tie Allow wins (the least restrictive rule).
import type { Rule } from './parse.js';

// RFC 3986 unreserved: ALPHA DIGIT - . _ ~
const ENCODED_UNRESERVED = /%(2[dDeE]|3[0-9]|4[1-9a-fA-F]|5[0-9aA]|5[fF]|6[1-9a-fA-F]|7[0-9aA]|7[eE])/g;

/**
 * One spelling per path: %62 → b and %7e → ~ (an encoded unreserved
 * character equals itself), any other escape upper-cased (%2f → %2F, which
 * stays distinct from '/'), and characters outside ASCII UTF-8 percent-encoded
 * (ツ → %E3%83%84), in patterns and paths alike.
 */
export function normalisePath(path: string): string {
  return path.replace(ENCODED_UNRESERVED, (m) => String.fromCharCode(parseInt(m.slice(1), 16)))
    .replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase())
    .replace(/[^\x00-\x7F]+/g, (s) => encodeURIComponent(s));
}

/** Does `pattern` (normalised) match `path` (normalised) from its start? '*' any run, final '$' the end. */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  // The first literal must be a prefix; each next one is found as early as it can be (greedy is never needed: '*' absorbs the gap).
  if (!path.startsWith(parts[0])) return false;
  let at = parts[0].length;
  for (let i = 1; i < parts.length; i++) {
    const last = i === parts.length - 1;
    if (last && anchored) return path.length - at >= parts[i].length && path.endsWith(parts[i]);
    const found = path.indexOf(parts[i], at);
    if (found < 0) return false;
    at = found + parts[i].length;
  }
  return anchored ? at === path.length : true;
}

interface Match { rule: Rule; length: number }

/** The deciding rule for `path` among `rules`, or undefined when none matches (allowed). */
export function decidingRule(rules: Rule[], path: string): Match | undefined {
  let best: Match | undefined;
  for (const rule of rules) {
    // An empty pattern ("Disallow:") matches nothing (RFC 9309 §2.2.2).
    if (!rule.pattern) continue;
    for (const pattern of expand(rule)) {
      const normalised = normalisePath(pattern);
      if (!patternMatches(normalised, path)) continue;
      const length = normalised.length;
      if (!best || length > best.length || (length === best.length && rule.allow && !best.rule.allow)) best = { rule, length };
    }
  }
  return best;
}

/** Google treats "Allow: /dir/index.html" as also allowing "/dir/" itself. */
function expand(rule: Rule): string[] {
  if (!rule.allow) return [rule.pattern];
  const slash = rule.pattern.lastIndexOf('/');
  if (slash >= 0 && rule.pattern.slice(slash).startsWith('/index.htm')) return [rule.pattern, `${rule.pattern.slice(0, slash + 1)}$`];
  return [rule.pattern];
}
