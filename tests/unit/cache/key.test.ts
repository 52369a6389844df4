import { describe, expect, it } from 'vitest';
import { cacheKey, normaliseQuery, normaliseUrl } from '../../../host/cache/key.js';

describe('normaliseUrl', () => {
  it.each([
    ['HTTPS://Example.ORG:443/a?b=2&a=1#top', 'https://example.org/a?a=1&b=2'],
    ['http://example.org:80/', 'http://example.org/'],
    ['https://example.org/p?utm_source=x&id=7&fbclid=abc', 'https://example.org/p?id=7'],
    ['https://example.org/p?x=2&x=1', 'https://example.org/p?x=1&x=2'],
    ['  https://example.org/p  ', 'https://example.org/p'],
    ['not a url', 'not a url'],
  ])('%s → %s', (raw, want) => expect(normaliseUrl(raw)).toBe(want));

  it('keeps what changes the page: path case, port, real parameters', () => {
    expect(normaliseUrl('https://example.org/A')).not.toBe(normaliseUrl('https://example.org/a'));
    expect(normaliseUrl('https://example.org:8443/')).toBe('https://example.org:8443/');
    expect(normaliseUrl('https://example.org/?page=2')).not.toBe(normaliseUrl('https://example.org/?page=3'));
  });
});

describe('cacheKey', () => {
  it('is a sha256 hex digest', () => {
    expect(cacheKey('search', { q: 'x' })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores key order and undefined fields', () => {
    expect(cacheKey('search', { q: 'x', n: 5, range: undefined })).toBe(cacheKey('search', { n: 5, q: 'x' }));
  });

  it('separates kinds and parameter values', () => {
    const base = cacheKey('search', { q: 'x', n: 5 });
    expect(cacheKey('scrape', { q: 'x', n: 5 })).not.toBe(base);
    expect(cacheKey('search', { q: 'x', n: 6 })).not.toBe(base);
  });

  it('equal for queries that differ only in case and spacing once normalised', () => {
    expect(cacheKey('search', { q: normaliseQuery('  Claude   PRICING ') })).toBe(cacheKey('search', { q: normaliseQuery('claude pricing') }));
  });
});
