// Adding back what both readings call the article's (block-add.ts), on small
// hand-written pages: a lead paragraph above the article's container and a
// second body container after an advert go back into the answer, in page
// order; a comment after a link line, a newsletter box and a hidden block do
// not; when the outside text outweighs the answer, the answer stands.
import { describe, expect, it } from 'vitest';
import { addAgreedBlocks } from '../../../host/scrape/block-add.js';
import { scorePage } from '../../../host/scrape/block-vote.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { markBoilerplate } from '../../../host/scrape/refine.js';
import { plainText } from '../../../host/scrape/text.js';

const para = (label: string) => `<p>${label}: the harbour wall was rebuilt after the storm, and the work went on through the whole of a long and wet winter, because the town had no other way to keep the sea out of its streets, and the council said that it would not wait for the money from the state.</p>`;
const nav = '<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>';

/** The article element stands in for Readability's answer; returns the answer's text after the add-back and how many went in. */
function addBack(body: string): { text: string; added: number } {
  const doc = parseDocument(`<html><body>${body}</body></html>`, 'http://news.test/a');
  markBoilerplate(doc);
  const scored = scorePage(doc.body);
  const answer = doc.querySelector('article')!;
  const added = addAgreedBlocks(answer, scored);
  return { text: plainText(answer), added };
}

describe('adding back blocks both readings call the article', () => {
  it('puts a lead paragraph above the container and a second body container after an advert back, in page order', () => {
    const { text, added } = addBack(`${nav}<div class="standfirst">${para('Lead')}</div><article>${para('One')}${para('Two')}${para('Three')}</article><div class="ad-slot"><img src="/ad.png"></div><div>${para('Four')}</div>`);
    expect(added).toBe(2);
    const at = (s: string) => text.indexOf(s);
    for (const s of ['Lead:', 'One:', 'Two:', 'Three:', 'Four:']) expect(at(s), s).toBeGreaterThanOrEqual(0);
    expect(at('Lead:')).toBeLessThan(at('One:'));
    expect(at('Three:')).toBeLessThan(at('Four:'));
  });

  it('adds nothing past a line of links, from a box named as a widget, or from a hidden block', () => {
    const { text, added } = addBack(`${nav}<div class="newsletter">${para('Newsletter')}</div><article>${para('One')}${para('Two')}${para('Three')}</article><p><a href="/comments">12 comments</a> · <a href="/share">Share</a></p>${para('Comment')}<div hidden>${para('Hidden')}</div>`);
    expect(added).toBe(0);
    for (const s of ['Newsletter:', 'Comment:', 'Hidden:']) expect(text).not.toContain(s);
  });

  it('adds a paragraph dropped between two of the answer’s, and nothing twice', () => {
    const doc = parseDocument(`<html><body>${nav}<article>${para('One')}${para('Two')}${para('Three')}</article></body></html>`, 'http://news.test/a');
    const scored = scorePage(doc.body);
    const answer = doc.querySelector('article')!;
    answer.querySelectorAll('p')[1].remove();
    expect(addAgreedBlocks(answer, scored)).toBe(1);
    const text = plainText(answer);
    expect(text.indexOf('One:')).toBeLessThan(text.indexOf('Two:'));
    expect(text.indexOf('Two:')).toBeLessThan(text.indexOf('Three:'));
    expect(addAgreedBlocks(answer, scorePage(doc.body))).toBe(0);
  });

  it('leaves the answer alone when the text outside outweighs it (the readings disagree about where the article is)', () => {
    const { added, text } = addBack(`${nav}<article>${para('One')}</article>${para('Two')}${para('Three')}`);
    expect(added).toBe(0);
    expect(text).not.toContain('Two:');
  });

  it('through the pipeline: off by default, and named in metadata.extraction when on', () => {
    const html = `<html><head><title>Harbour</title></head><body>${nav}<div class="story-header">${para('Lead')}</div><article><h1>Harbour</h1>${para('One')}${para('Two')}${para('Three')}${para('Five')}</article></body></html>`;
    const fetched = { url: 'http://news.test/a', status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false };
    const plain = scrapePage(fetched, { format: 'text', mainContent: true });
    const on = scrapePage(fetched, { format: 'text', mainContent: true, steps: { addBack: true } });
    expect(plain.content_text).not.toContain('Lead:');
    expect(on.content_text).toContain('Lead:');
    expect(String(on.metadata.extraction)).toMatch(/both readings call the article's added back/);
  });
});
