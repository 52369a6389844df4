// Exa client: POST /search (https://docs.exa.ai/reference/search) with the
// key in x-api-key; a time range becomes startPublishedDate. Page text is
// asked for (contents.text) only to make the snippet.
import type { SearchConfig } from '../config/types.js';
import { malformed } from './http.js';
import { domainOf, isoDate, num, snippetOf, str } from './items.js';
import { RANGE_MS, type ProviderAnswer, type SearchQuery } from './types.js';

export function exaBody(cfg: SearchConfig['exa'], q: SearchQuery, now = Date.now()): Record<string, unknown> {
  return {
    query: q.query,
    numResults: q.num_results,
    type: cfg.type,
    ...(q.time_range ? { startPublishedDate: new Date(now - RANGE_MS[q.time_range]).toISOString() } : {}),
    contents: { text: { maxCharacters: 400 } },
  };
}

interface ExaResult { title?: unknown; url?: unknown; publishedDate?: unknown; author?: unknown; score?: unknown; text?: unknown; highlights?: unknown; summary?: unknown }

export function parseExa(body: unknown, q: SearchQuery): ProviderAnswer {
  const b = body as { results?: unknown } | null;
  if (!b || typeof b !== 'object' || !Array.isArray(b.results)) throw malformed('exa', 'answer has no "results" list');
  const results = (b.results as ExaResult[])
    .filter((r) => r && typeof r === 'object' && typeof r.url === 'string')
    .slice(0, q.num_results)
    .map((r, i) => {
      const highlight = Array.isArray(r.highlights) ? str(r.highlights[0]) : '';
      return {
        title: str(r.title) || domainOf(r.url as string),
        url: r.url as string,
        snippet: snippetOf(str(r.summary) || highlight || str(r.text)),
        position: i + 1,
        domain: domainOf(r.url as string),
        publish_date: isoDate(r.publishedDate),
        relevance_score: num(r.score),
      };
    });
  return { results, total_results: results.length };
}
