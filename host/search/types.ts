// The SearchResult / SearchResultItem shapes, as web.search returns them.
export type TimeRange = 'day' | 'week' | 'month' | 'year';
export type SearchSource = 'serpapi' | 'exa';

export interface SearchQuery {
  query: string;
  num_results: number;
  time_range?: TimeRange;
}

interface SearchResultItem {
  title: string;
  url: string;
  snippet: string;
  position: number;
  domain: string;
  publish_date: string | null;
  relevance_score: number | null;
}

export interface ProviderAnswer {
  results: SearchResultItem[];
  total_results: number;
}

export interface SearchResult extends ProviderAnswer {
  query: string;
  source: SearchSource;
  search_time_ms: number;
  cached: boolean;
  /** When the provider answered (ISO 8601); older than now on a cache hit. */
  timestamp: string;
}

export const RANGE_MS: Record<TimeRange, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 31 * 86_400_000,
  year: 366 * 86_400_000,
};
