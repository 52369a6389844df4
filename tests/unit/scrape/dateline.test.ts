// Datelines and bylines before the answer's first paragraph (dateline.ts), on
// small hand-written pages: the date and author lines go, a short first
// sentence that mentions a year stays, and so does anything after the first
// paragraph; off unless the step is asked for.
import { describe, expect, it } from 'vitest';
import { dropDatelines, isDateline } from '../../../host/scrape/dateline.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { plainText } from '../../../host/scrape/text.js';

const para = (i: number) => `<p>Paragraph ${i}: the harbour wall was rebuilt after the storm, and the work went on through the whole of a long and wet winter, because the town had no other way to keep the sea out of its streets.</p>`;
const answer = (html: string) => parseDocument(`<html><body><article>${html}</article></body></html>`, 'http://news.test/a').querySelector('article')!;

describe('datelines', () => {
  it.each([
    ['Published August 14, 2010', true],
    ['Updated: August 13, 2010, 5:02 PM ET', true],
    ['Mis à jour le 29/10/2012 à 14h03', true],
    ['By Jane Doe', true],
    ['Von Katrin Bauer', true],
    ['It all began in 2010.', false],
    ['By the end of the week the harbour was closed to every boat.', false],
    ['Harbour wall rebuilt', false],
  ])('%s reads as a dateline: %s', (text, expected) => {
    expect(isDateline(text, text.split(/\s+/).length)).toBe(expected);
  });

  it('removes the date and byline lines before the first paragraph, not a dated line after it', () => {
    const root = answer(`<p>By Jane Doe</p><p>Published August 14, 2010</p>${para(1)}<p>Updated 14:05</p>${para(2)}`);
    expect(dropDatelines(root)).toBe(2);
    const text = plainText(root);
    expect(text).not.toContain('Jane Doe');
    expect(text).not.toContain('August 14, 2010');
    expect(text).toContain('Updated 14:05');
    expect(text).toContain('Paragraph 1:');
  });

  it('keeps a dated line that shares its element with other text, and a dated heading', () => {
    const root = answer(`<h2>The 2010 storm</h2><div>Published August 14, 2010<span> and a caption that belongs with it</span><img src="/x.jpg"></div>${para(1)}`);
    expect(dropDatelines(root)).toBe(0);
    expect(plainText(root)).toContain('The 2010 storm');
  });

  it('through the pipeline: off by default, and when on it says what went', () => {
    const html = `<html><head><title>The harbour wall</title></head><body><article><h1>The harbour wall</h1><p>Published August 14, 2010</p>${para(1)}${para(2)}${para(3)}</article></body></html>`;
    const fetched = { url: 'http://news.test/a', status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false };
    expect(scrapePage(fetched, { format: 'text', mainContent: true }).content_text).toContain('Published August 14, 2010');
    const on = scrapePage(fetched, { format: 'text', mainContent: true, steps: { dateline: true } });
    expect(on.content_text).not.toContain('Published August 14, 2010');
    expect(on.content_text).toContain('Paragraph 1:');
    expect(String(on.metadata.extraction)).toMatch(/dateline\/byline line\(s\) before the first paragraph removed/);
  });
});
