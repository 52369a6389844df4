// The scrape pipeline on the saved pages, without a browser: a FetchedPage in,
// ScrapedContent out. What a user reads: title, author, date, language, the
// main text laid out in paragraphs, Markdown that keeps code, tables and links.
import { describe, expect, it } from 'vitest';
import { WebcapError } from '../../../manifests/errors.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import type { FetchedPage, ScrapeOptions } from '../../../host/scrape/types.js';
import { articleFile } from '../../fixtures/articles/site.js';

const MAIN: ScrapeOptions = { format: 'markdown', mainContent: true };
const page = (html: string, url = 'https://site.test/a/b', extra: Partial<FetchedPage> = {}): FetchedPage =>
  ({ url, status: 200, headers: {}, html, rendered: true, ...extra });
const para = (s: string) => `<p>${s} ${'More words, with commas, so the paragraph reads as real content. '.repeat(4)}</p>`;

describe('scrapePage on the saved pages', () => {
  it.each([
    ['news-article.html', 'Harbour authority approves tidal barrier after decade of floods', 'Maria Lindqvist', '2024-05-14T06:30:00.000Z', 'en-GB'],
    ['blog-post.html', 'Mon potager sur le balcon : bilan d’une première saison', 'Julie Martin', '2023-11-02T08:15:00.000Z', 'fr-FR'],
    ['docs-page.html', 'Configuration reference', null, null, 'en'],
    ['js-article.rendered.html', 'Mit dem Nachtzug über die Alpen', 'Katrin Bauer', '2024-02-20T05:00:00.000Z', 'de'],
  ])('%s → title, author, date, language', (file, title, author, date, language) => {
    const r = scrapePage(page(articleFile(file)), MAIN);
    expect({ title: r.title, author: r.author, publish_date: r.publish_date, language: r.language }).toEqual({ title, author, publish_date: date, language });
    expect(r.word_count).toBeGreaterThan(150);
  });

  it('lays the text out as a reader sees it: paragraphs apart, list items one per line, no markup', () => {
    const r = scrapePage(page(articleFile('blog-post.html')), MAIN);
    expect(r.content_text).toContain('Voici le bilan, sans filtre, de cette première saison.\n\nCe qui a marché\n\nLes tomates cerises');
    expect(r.content_text).toContain('Tomates cerises : trois pieds, environ six kilos récoltés\nRadis : quatre semis');
    expect(r.content_text).not.toMatch(/<[a-z]/i);
  });

  it('Markdown: fences longer than the code\'s own, plain <pre>, escaped pipes in cells, tables without a heading row, lazy images and <base> links absolute', () => {
    const r = scrapePage(page(articleFile('dom-features.html'), 'https://feature.test/path/page.html'), MAIN);
    expect(r.title).toBe('DOM features');
    expect(r.content_markdown).toContain('````md\nA fence inside code:\n```js\nx()\n```\n````');
    expect(r.content_markdown).toContain('```\nplain pre, no code element\n  indented line\n```');
    expect(r.content_markdown).toContain('| 7 | a\\|b |');
    expect(r.content_markdown).toContain('|  |  |\n| --- | --- |\n| Layout | table |');
    expect(r.content_markdown).toContain('![lazy](https://cdn.test/base/lazy.jpg) [relative link](https://cdn.test/base/rel/link.html)');
    for (const hidden of ['Hidden by style', 'Hidden by the hidden attribute', 'Aria hidden', 'Hidden by visibility', 'Footer text']) {
      expect(r.content_text, hidden).not.toContain(hidden);
    }
    expect(r.content_text).toContain('first item\nsecond item\nnested item');
  });

  it('main_content=false keeps the whole body; format=html adds the HTML that was converted', () => {
    const r = scrapePage(page(articleFile('news-article.html')), { format: 'html', mainContent: false });
    expect(r.content_text).toContain('Related stories');
    expect(r.content_text).toContain('Board members voted nine to two');
    expect(r.content_html).toContain('<aside class="related">');
    expect(r.metadata.extraction).toBe('body');
    expect(scrapePage(page(articleFile('news-article.html')), MAIN).content_html).toBeUndefined();
  });

  it('metadata: site name, description, absolute image and canonical URL, keywords, modified date', () => {
    const r = scrapePage(page(articleFile('news-article.html'), 'https://news.test/2024/05/14/tidal-barrier-approved'), MAIN);
    expect(r.metadata).toMatchObject({
      site_name: 'The Harbour Gazette', image: 'https://news.test/media/2024/05/barrier-render.jpg',
      canonical_url: 'https://news.test/2024/05/14/tidal-barrier-approved', keywords: ['flooding', 'infrastructure', 'estuary', 'climate'],
      modified_date: '2024-05-14T11:05:00.000Z', language_source: 'html_lang', extraction: 'readability',
    });
  });
});

describe('scrapePage: language, dates and odd pages', () => {
  const frenchBody = `<p>${'Le marché de la ville est ouvert tous les jours, et les habitants y viennent pour acheter des légumes et du pain. '.repeat(5)}</p>`;
  it.each([
    ['html lang wins', '<html lang="pt-br">', {}, 'pt-BR', 'html_lang'],
    ['Content-Language header next', '<html>', { 'content-language': 'nl-BE, nl' }, 'nl-BE', 'content_language'],
    ['og:locale with an underscore', '<html><head><meta property="og:locale" content="it_IT"></head>', {}, 'it-IT', 'og_locale'],
    ['else detected from the words', '<html>', {}, 'fr', 'detected'],
  ])('%s', (_name, open, headers, language, source) => {
    const r = scrapePage(page(`${open}<body><article><h1>T</h1>${frenchBody}${frenchBody}</article></body></html>`, undefined, { headers }), MAIN);
    expect([r.language, r.metadata.language_source]).toEqual([language, source]);
  });

  it('undetermined language is "und"; an unparsable date is null with the raw text kept', () => {
    const html = `<html><head><meta property="article:published_time" content="sometime last week"></head><body><article><p>${'1234, 5678, 90 12 34 56. '.repeat(30)}</p></article></body></html>`;
    const r = scrapePage(page(html), MAIN);
    expect(r.language).toBe('und');
    expect(r.publish_date).toBeNull();
    expect(r.metadata.published_time).toBe('sometime last week');
  });

  it('a page with hardly any text still gives its text, and the URL stands in for a missing title', () => {
    const r = scrapePage(page('<html><body><p>Hello there.</p></body></html>'), MAIN);
    expect(r.content_text).toBe('Hello there.');
    expect(r.title).toBe('https://site.test/a/b');
    expect(r.word_count).toBe(2);
  });

  it('text served as HTML without a single tag is read as the page\'s text (it used to crash the parser)', () => {
    const r = scrapePage(page('First line of a plain note.\n\nSecond paragraph & the end.'), MAIN);
    expect(r.content_text).toContain('First line of a plain note.');
    expect(r.content_text).toContain('Second paragraph & the end.');
  });

  it('an HTTP error page is an http_error with the status, not content', () => {
    expect(() => scrapePage(page('<html><body><h1>Server error</h1></body></html>', undefined, { status: 500 }), MAIN)).toThrow(WebcapError);
    try {
      scrapePage(page('<html><body><h1>Server error</h1></body></html>', undefined, { status: 502 }), MAIN);
    } catch (err) {
      expect([(err as WebcapError).code, (err as WebcapError).details.status]).toEqual(['http_error', 502]);
    }
  });
});
