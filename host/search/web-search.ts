// web.search: SerpAPI or Exa, or `auto` (SerpAPI → Exa → a stale cache entry),
// answering the SearchResult shape.
import { ownerOf } from '../cache/owner.js';
import { WebcapError } from '../../manifests/errors.js';
import { cacheKey, normaliseQuery } from '../cache/key.js';
import type { HostProvider, HostProviderContext } from '../providers/types.js';
import type { CallResult } from '../policies/types.js';
import { readKey } from './credentials.js';
import { exaBody, parseExa } from './exa.js';
import { answer, type Candidate } from './fallback.js';
import { fallbackOptions } from './context.js';
import { requestJson } from './http.js';
import { parseSerpapi, serpapiUrl } from './serpapi.js';
import type { ProviderAnswer, SearchQuery, SearchSource, TimeRange } from './types.js';

type Stored = ProviderAnswer & { timestamp: string };

export const webSearch: HostProvider<'web.search'> = async (params, ctx) => {
  const started = performance.now();
  const query = params.query.trim();
  if (!query) throw new WebcapError('invalid_params', 'web.search: field "query" must not be blank', { field: 'query' });
  const q: SearchQuery = { query, num_results: params.num_results ?? 5, time_range: params.time_range };
  const source = params.source ?? ctx.config.search.default_source;
  const sources: SearchSource[] = source === 'auto' ? ['serpapi', 'exa'] : [source];
  const useCache = params.cache !== false;
  const timeoutMs = params.timeout ?? ctx.config.search.timeout_ms;
  const candidates = sources.map((s) => candidate(s, q, timeoutMs, ctx));
  const a = await answer(candidates, fallbackOptions(ctx, 'web.search', useCache, source === 'auto'));
  const result: CallResult = {
    query,
    source: a.source,
    results: a.value.results,
    total_results: a.value.total_results,
    search_time_ms: Math.round(performance.now() - started),
    cached: a.cached,
    timestamp: a.value.timestamp,
  };
  if (a.stale) Object.assign(result, { stale: true, age_ms: a.age_ms });
  if (a.failed.length) result.failed_sources = a.failed;
  return result;
};

function candidate(source: SearchSource, q: SearchQuery, timeoutMs: number, ctx: HostProviderContext): Candidate<Stored> {
  const cfg = ctx.config.search;
  const scrub = (text: string) => ctx.redactor.redactString(text);
  const variant = source === 'serpapi' ? { engine: cfg.serpapi.engine } : { type: cfg.exa.type };
  let key = '';
  return {
    source,
    provider: source,
    cacheKey: cacheKey('search', { source, ...variant, q: normaliseQuery(q.query), n: q.num_results, range: q.time_range, ...ownerOf(ctx.call) }),
    limits: cfg[source],
    ready() {
      const env = source === 'serpapi' ? cfg.serpapi.api_key_env : cfg.exa.api_key_env;
      key = readKey(source, env, `[search.${source}] api_key_env`, ctx.redactor, 'web.search');
    },
    async fetch() {
      const timestamp = new Date().toISOString();
      if (source === 'serpapi') {
        const body = await requestJson({ provider: source, method: 'GET', url: serpapiUrl(cfg.serpapi, q, key), timeoutMs, scrub });
        return { ...parseSerpapi(body, q), timestamp };
      }
      const body = await requestJson({ provider: source, method: 'POST', url: new URL(cfg.exa.endpoint), headers: { 'x-api-key': key }, body: exaBody(cfg.exa, q), timeoutMs, scrub });
      return { ...parseExa(body, q), timestamp };
    },
  };
}
