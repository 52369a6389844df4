// SerpAPI client: GET search.json (https://serpapi.com/search-api) with the
// engine's own parameters — Google: num and tbs=qdr:d|w|m|y; Bing: count and
// filters=ex1:"ez1|ez2|ez3" (past day/week/month) or an ez5 date range.
import { WebcapError } from '../../manifests/errors.js';
import type { SearchConfig } from '../config/types.js';
import { malformed } from './http.js';
import { domainOf, isoDate, num, snippetOf, str } from './items.js';
import type { ProviderAnswer, SearchQuery, TimeRange } from './types.js';

const GOOGLE_TBS: Record<TimeRange, string> = { day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' };
const BING_EZ: Partial<Record<TimeRange, string>> = { day: 'ez1', week: 'ez2', month: 'ez3' };

export function serpapiUrl(cfg: SearchConfig['serpapi'], q: SearchQuery, apiKey: string, now = Date.now()): URL {
  const url = new URL(cfg.endpoint);
  const p = url.searchParams;
  p.set('engine', cfg.engine);
  p.set('q', q.query);
  if (cfg.engine === 'google') {
    p.set('num', String(q.num_results));
    if (q.time_range) p.set('tbs', GOOGLE_TBS[q.time_range]);
  } else {
    p.set('count', String(q.num_results));
    if (q.time_range) p.set('filters', `ex1:"${bingRange(q.time_range, now)}"`);
  }
  p.set('api_key', apiKey);
  return url;
}

// Bing has no "past year" preset; its custom range is ez5_<from>_<to> in days since 1970-01-01.
function bingRange(range: TimeRange, now: number): string {
  const preset = BING_EZ[range];
  if (preset) return preset;
  const today = Math.floor(now / 86_400_000);
  return `ez5_${today - 365}_${today}`;
}

interface SerpOrganic { position?: unknown; title?: unknown; link?: unknown; snippet?: unknown; date?: unknown }

export function parseSerpapi(body: unknown, q: SearchQuery, now = Date.now()): ProviderAnswer {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw malformed('serpapi', 'answered with JSON that is not an object');
  const b = body as { organic_results?: unknown; search_information?: { total_results?: unknown }; error?: unknown };
  // SerpAPI reports "no results" as HTTP 200 with an `error` string and no organic_results.
  if (b.organic_results === undefined) {
    if (typeof b.error === 'string' && !/hasn't returned any results|no results/i.test(b.error)) {
      throw new WebcapError('provider_error', `serpapi reported: ${b.error.slice(0, 200)}`, { provider: 'serpapi', reason: 'provider_reported' });
    }
    return { results: [], total_results: 0 };
  }
  if (!Array.isArray(b.organic_results)) throw malformed('serpapi', '"organic_results" is not a list');
  const results = (b.organic_results as SerpOrganic[])
    .filter((r) => r && typeof r === 'object' && typeof r.link === 'string')
    .slice(0, q.num_results)
    .map((r, i) => ({
      title: str(r.title),
      url: r.link as string,
      snippet: snippetOf(r.snippet),
      position: num(r.position) ?? i + 1,
      domain: domainOf(r.link as string),
      publish_date: isoDate(r.date, now),
      relevance_score: null,
    }));
  const total = num(b.search_information?.total_results);
  return { results, total_results: total ?? results.length };
}
