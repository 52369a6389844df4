// The page's JSON-LD articleBody as a reading (structured-body.ts), on small
// hand-written pages: a page that prints only its first lines and states the
// whole article in its structured data gets the whole article when the
// statement is consistent with the page; a statement about another article,
// or one no longer than what the page prints, changes nothing.
import { describe, expect, it } from 'vitest';
import { scrapePage } from '../../../host/scrape/pipeline.js';

const sentences = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Sentence ${i + 1} about the ${topic} tells the reader one more thing that happened on the day.`);
const printed = sentences('harbour wall', 3);
const whole = [...printed, ...sentences('harbour wall', 20).slice(3)];

function page(body: { articleBody: string; headline: string }, title = 'The harbour wall is rebuilt'): string {
  const ld = JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: body.headline, articleBody: body.articleBody }).replace(/</g, '\\u003c');
  return `<html><head><title>${title}</title><script type="application/ld+json">${ld}</script></head><body><article><h1>${title}</h1>${printed.map((s) => `<p>${s}</p>`).join('')}<p><a href="/subscribe">Subscribe to read on</a></p></article></body></html>`;
}
const read = (html: string, structured?: boolean) =>
  scrapePage({ url: 'http://news.test/a', status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false }, { format: 'text', mainContent: true, ...(structured === undefined ? {} : { steps: { structured } }) });

describe('JSON-LD articleBody as a reading', () => {
  it('takes the whole article from articleBody when the page prints only its start, and says so', () => {
    const html = page({ articleBody: whole.join('\n'), headline: 'The harbour wall is rebuilt' });
    const r = read(html, true);
    expect(r.content_text).toContain('Sentence 20 about the harbour wall');
    expect(r.content_text.split('\n').filter((l) => l.startsWith('Sentence')).length).toBe(20);
    expect(String(r.metadata.extraction)).toMatch(/JSON-LD articleBody taken/);
    // On by default; turned off, the printed text stands.
    expect(read(html).content_text).toContain('Sentence 20 about');
    expect(read(html, false).content_text).not.toContain('Sentence 20 about');
  });

  it('ignores an articleBody about another article (other headline, other words)', () => {
    const other = Array.from({ length: 20 }, (_, i) => `Kickoff ${i * 7} saw United press high; Rovers' keeper parried ${i + 2} shots before extra time in the football final.`);
    const r = read(page({ articleBody: other.join('\n'), headline: 'Cup final ends in a draw' }), true);
    expect(r.content_text).not.toContain('football final');
    expect(r.content_text).toContain('Sentence 3 about the harbour wall');
  });

  it('ignores an articleBody no longer than what the page prints', () => {
    const r = read(page({ articleBody: printed.join('\n'), headline: 'The harbour wall is rebuilt' }), true);
    expect(String(r.metadata.extraction)).not.toMatch(/articleBody taken/);
  });
});
