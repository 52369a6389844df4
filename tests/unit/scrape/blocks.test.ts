// The block pass over the chosen article (host/scrape/blocks.ts): a trailing
// label goes, prose, links and headings with text under them stay; the
// page's JSON-LD articleBody, when the answer agrees with it, trims what lies
// outside it at the edges, and is ignored when it does not agree.
import { describe, expect, it } from 'vitest';
import { sharpen } from '../../../host/scrape/blocks.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { plainText } from '../../../host/scrape/text.js';

const prose = (n: number) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} tells how the harbour wall was rebuilt after the storm, stone by stone, over the whole of a long wet winter season.</p>`).join('');
const root = (html: string) => parseDocument(`<html><body><div id="a">${html}</div></body></html>`, 'http://news.test/a').getElementById('a')!;

describe('sharpen', () => {
  it('drops trailing headings with nothing under them; keeps prose, link lists and headings that head text', () => {
    const el = root(`<h2>The wall</h2>${prose(3)}<ul><li><a href="/x">Harbour</a></li><li><a href="/y">Storm</a></li></ul>${prose(1)}<h3>Also on this site</h3><h4>More</h4>`);
    expect(sharpen(el)).toBe(2);
    const text = plainText(el);
    expect(text).not.toMatch(/Also on this site|More$/);
    expect(text).toContain('The wall');
    expect(text).toContain('Harbour');
    expect(text).toContain('Paragraph 0');
  });

  it('keeps a sentence that carries a link', () => {
    const el = root(`${prose(2)}<p>The <a href="/r">full report</a> is online.</p>`);
    expect(sharpen(el)).toBe(0);
  });

  it('with an agreeing articleBody, leading and trailing blocks it does not hold go', () => {
    const body = prose(4).replace(/<\/?p>/g, '\n');
    const el = root(`<p>Share this story with your friends today</p>${prose(4)}<p>Newsletter: get our weekly picks delivered free</p>`);
    expect(sharpen(el, body)).toBe(2);
    expect(plainText(el)).not.toMatch(/Share this|Newsletter/);
  });

  it('an articleBody that the answer does not hold (a teaser, another story) changes nothing', () => {
    const el = root(`<p>Share this story with your friends today</p>${prose(4)}`);
    expect(sharpen(el, 'A completely different story about mountain railways and their timetables, told at length. '.repeat(12))).toBe(0);
  });

  it('runs in the pipeline and says so in metadata.extraction', () => {
    const html = `<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>${prose(6)}<h2>Auch interessant</h2></article></body></html>`;
    const content = scrapePage({ url: 'http://news.test/a', status: 200, headers: {}, html, rendered: false }, { format: 'text', mainContent: true });
    expect(content.content_text).not.toContain('Auch interessant');
    expect(content.metadata.extraction).toMatch(/sharpened away/);
    const alone = scrapePage({ url: 'http://news.test/a', status: 200, headers: {}, html, rendered: false }, { format: 'text', mainContent: true, readabilityOnly: true });
    expect(alone.content_text).toContain('Auch interessant');
  });
});
