// Cache keys. Two requests that would fetch the same thing must get the same
// key, so the inputs are normalised first: URLs lose what never changes the
// response (fragment, default port, tracking parameters, parameter order),
// and parameter objects are canonical JSON (RFC 8785), so key order is moot.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

// Campaign tags that servers ignore; keeping them would split one page into many entries.
const TRACKING_PARAM = /^(utm_[a-z]+|fbclid|gclid|dclid|msclkid|mc_eid)$/i;

/** The URL as a cache sees it; input that is not an absolute URL is returned trimmed. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return raw.trim();
  }
  url.hash = '';
  const params = [...url.searchParams].filter(([name]) => !TRACKING_PARAM.test(name));
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  url.search = new URLSearchParams(params).toString();
  // new URL() already lower-cases scheme and host and drops a default port.
  return url.href;
}

/** Search engines ignore case and runs of spaces; so does the key. */
export function normaliseQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * sha256 (hex) of the kind ("scrape", "search", …) and the parameters that
 * change the answer. Pass normalised values (normaliseUrl / normaliseQuery);
 * undefined fields are dropped, so an omitted option and an absent one agree.
 */
export function cacheKey(kind: string, parts: Record<string, unknown>): string {
  const text = canonicalize({ kind, parts: JSON.parse(JSON.stringify(parts)) as unknown });
  return createHash('sha256').update(text ?? '').digest('hex');
}
