import { describe, expect, it } from 'vitest';
import { parseRetryAfter, providerMessage } from '../../../host/search/http.js';
import { domainOf, isoDate, snippetOf } from '../../../host/search/items.js';
import { actorInput } from '../../../host/search/apify.js';
import { loadConfig } from '../../../host/config/load.js';

describe('search helpers', () => {
  it('Retry-After: seconds or an HTTP date; junk → undefined', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it.each([
    ['{"error":"Invalid API key"}', 'Invalid API key'],
    ['{"error":{"type":"token-not-valid","message":"Authentication token is not valid."}}', 'Authentication token is not valid. (token-not-valid)'],
    ['{"message":"Too many requests"}', 'Too many requests'],
    ['<html><body>502 Bad Gateway</body></html>', ''],
    ['plain   text\nerror', 'plain text error'],
  ])('provider message of %s', (body, want) => expect(providerMessage(body)).toBe(want));

  it('snippets are at most 200 characters, cut at a word', () => {
    const s = snippetOf('word '.repeat(100));
    expect(s.length).toBeLessThanOrEqual(200);
    expect(s.endsWith('word…')).toBe(true);
    expect(snippetOf('  short\n\ntext ')).toBe('short text');
    expect(snippetOf(undefined)).toBe('');
  });

  it('dates: absolute, relative ("3 days ago"), or null', () => {
    const now = Date.parse('2026-06-10T12:00:00Z');
    expect(isoDate('2026-03-03T00:00:00Z', now)).toBe('2026-03-03T00:00:00.000Z');
    expect(isoDate('2 hours ago', now)).toBe('2026-06-10T10:00:00.000Z');
    expect(isoDate('1 week ago', now)).toBe('2026-06-03T12:00:00.000Z');
    expect(isoDate('sometime', now)).toBeNull();
    expect(isoDate(null, now)).toBeNull();
  });

  it('domains drop www.', () => {
    expect(domainOf('https://www.Example.org/a')).toBe('example.org');
    expect(domainOf('not a url')).toBe('');
  });

  it('actor input templates: whole placeholders keep their type, empty values are dropped', () => {
    const cfg = loadConfig({}).search.apify;
    expect(actorInput(cfg, 'google_maps', { query: 'pizza', max_results: 7 })).toEqual({ searchStringsArray: ['pizza'], maxCrawledPlacesPerSearch: 7, language: 'en' });
    expect(actorInput({ ...cfg, inputs: { thefork: { q: '{query} in {city}', n: '{max_results}', keep: '{unknown}', list: ['{country}'] } } }, 'thefork', { query: 'sushi', city: 'Lyon', max_results: 3 }))
      .toEqual({ q: 'sushi in Lyon', n: 3, keep: '{unknown}' });
  });

  it('[search] defaults', () => {
    const s = loadConfig({}).search;
    expect(s).toMatchObject({ default_source: 'auto', breaker_failures: 3, breaker_open_s: 300 });
    expect(s.serpapi).toEqual({ endpoint: 'https://serpapi.com/search.json', api_key_env: 'SERPAPI_API_KEY', engine: 'google' });
    expect(s.exa).toEqual({ endpoint: 'https://api.exa.ai/search', api_key_env: 'EXA_API_KEY', type: 'neural' });
    expect(s.apify).toMatchObject({ endpoint: 'https://api.apify.com/v2', token_env: 'APIFY_TOKEN', actors: { google_maps: 'compass~crawler-google-places' } });
    expect(() => loadConfig({ search: { serpapi: { engine: 'duckduckgo' } } })).toThrow(/search.serpapi.engine/);
  });
});
