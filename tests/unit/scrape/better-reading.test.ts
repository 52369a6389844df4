// Which reading web.scrape keeps when a page was read both ways, and the
// corpus split the extraction bench tunes and measures on.
import { describe, expect, it } from 'vitest';
import { betterReading, kept } from '../../../host/scrape/better-reading.js';
import type { ScrapedContent } from '../../../host/scrape/types.js';
import { checkedSplit, halfOf, splitList } from '../../../bench/corpus-split.js';
import { loadCorpus } from '../../../bench/quality.js';
import { trafilaturaNames } from '../../../bench/trafilatura-snippets.js';

const words = (n: number, word = 'tide') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const reading = (text: string) => ({ content_text: text, word_count: text.split(/\s+/).filter(Boolean).length }) as ScrapedContent;

describe('betterReading', () => {
  it('keeps the rendered reading when it adds words and keeps what HTTP had', () => {
    const pick = betterReading(reading(words(200)), reading(`${words(200)} ${words(100, 'ebb')}`));
    expect(pick.keep).toBe('browser');
    expect(pick.why).toBe('kept the rendered reading (rendered 300 words, HTTP 200; rendered keeps 1.00 of the HTTP words: ≥ 1.1× the words and ≥ 0.8 kept)');
  });

  it('keeps the HTTP reading when the render has the same words, fewer, or different ones', () => {
    expect(betterReading(reading(words(200)), reading(words(200))).keep).toBe('http');
    expect(betterReading(reading(words(200)), reading(words(20))).keep).toBe('http');
    expect(betterReading(reading(words(200)), reading(words(400, 'oops'))).keep).toBe('http');
  });

  it('an app shell (HTTP has a notice, not an article) takes the longer rendered reading even though the notice is gone', () => {
    expect(betterReading(reading('Please enable JavaScript'), reading(words(300))).keep).toBe('browser');
  });

  it('kept counts repeated words only as often as the rendered text has them', () => {
    expect(kept('a a a b', 'a b')).toBe(0.5);
  });
});

describe('corpus split', () => {
  it('is fixed by the page name, and the committed list matches the hash for every page', () => {
    expect(halfOf('readability/001')).toBe(halfOf('readability/001'));
    const names = [...loadCorpus().map((p) => p.name), ...trafilaturaNames()];
    const split = checkedSplit(names);
    expect(split).toEqual(splitList(names));
    expect(split.development.length + split['held-out'].length).toBe(names.length);
    expect(split.development.length).toBeGreaterThan(names.length / 3);
    expect(split['held-out'].length).toBeGreaterThan(names.length / 3);
  });
});
