// The whole-page block scorer (block-segment.ts, block-classify.ts) and its
// vote against Readability's answer (block-vote.ts), on small hand-written
// pages: navigation and related-link blocks are boilerplate, a short
// paragraph between two of the article's paragraphs is kept, and the vote
// takes from the answer only what the scorer is sure of.
import { describe, expect, it } from 'vitest';
import { segmentPage } from '../../../host/scrape/block-segment.js';
import { classifyBlocks } from '../../../host/scrape/block-classify.js';
import { dropBoilerplateBlocks, scorePage } from '../../../host/scrape/block-vote.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { plainText } from '../../../host/scrape/text.js';

const para = (i: number) => `<p>Paragraph ${i}: the harbour wall was rebuilt after the storm, and the work went on through the whole of a long and wet winter, because the town had no other way to keep the sea out of its streets, and the council said that it would not wait for the money from the state.</p>`;
const nav = '<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>';
const related = '<div><h3>Related</h3><ul><li><a href="/a">Storm closes the ferry</a></li><li><a href="/b">New mayor sworn in</a></li><li><a href="/c">Festival dates set</a></li></ul></div>';
const body = (html: string) => parseDocument(`<html><body>${html}</body></html>`, 'http://news.test/a').body;

function verdicts(html: string): Map<string, string> {
  const blocks = segmentPage(body(html));
  const v = classifyBlocks(blocks);
  return new Map(blocks.map((b, i) => [b.text, v[i].final]));
}

describe('block scorer', () => {
  it('calls navigation and a related-links list boilerplate, the paragraphs good', () => {
    const v = verdicts(`${nav}<article><h1>The harbour wall</h1>${para(1)}${para(2)}</article>${related}`);
    expect(v.get('Home')).toBe('bad');
    expect(v.get('Storm closes the ferry')).toBe('bad');
    expect(v.get('Related')).toBe('bad');
    expect(v.get(plainText(body(para(1))))).toBe('good');
    // A short heading with the article right after it heads the article.
    expect(v.get('The harbour wall')).toBe('good');
  });

  it('keeps a short paragraph between two good ones, and drops the same line among boilerplate', () => {
    const v = verdicts(`${nav}${para(1)}<p>It worked.</p>${para(2)}${related}<p>Share this.</p><footer><a href="/about">About us</a></footer>`);
    expect(v.get('It worked.')).toBe('good');
    expect(v.get('Share this.')).toBe('bad');
  });

  it('cuts the page where block elements start; links and emphasis stay inside their paragraph', () => {
    const blocks = segmentPage(body('<div>Intro <em>text</em> here<p>A <a href="/x">linked</a> word.</p>tail</div>'));
    expect(blocks.map((b) => b.text)).toEqual(['Intro text here', 'A linked word.', 'tail']);
    expect(blocks[1].linkChars).toBe('linked'.length);
  });
});

describe('the vote against Readability', () => {
  const page = `${nav}<article><h1>The harbour wall</h1>${para(1)}<p>It worked.</p>${para(2)}${para(3)}<p><a href="/more">Read more: storm closes the ferry</a></p>${para(4)}<h3>More from the coast</h3><ul><li><a href="/d">Lighthouse repainted</a></li><li><a href="/e">Beach cleaned</a></li></ul></article><footer><p>© 2024 Coast News</p></footer>`;

  it('takes a link teaser out of the answer and a link box with its label off its end, keeps the short paragraph', () => {
    const doc = parseDocument(`<html><body>${page}</body></html>`, 'http://news.test/a');
    const scored = scorePage(doc.body);
    // Readability's answer stands in here as the article element.
    const answer = doc.querySelector('article')!;
    expect(dropBoilerplateBlocks(answer, scored)).toBeGreaterThanOrEqual(3);
    const text = plainText(answer);
    expect(text).not.toContain('Read more');
    expect(text).not.toContain('Lighthouse repainted');
    expect(text).not.toContain('More from the coast');
    expect(text).toContain('It worked.');
    for (const i of [1, 2, 3, 4]) expect(text).toContain(`Paragraph ${i}:`);
  });

  it('takes off the end a short line that labels the links after it, but not a closing sentence', () => {
    const links = '<ul><li><a href="/d">Lighthouse repainted</a></li><li><a href="/e">Beach cleaned</a></li></ul>';
    const read = (closing: string) => {
      const doc = parseDocument(`<html><body>${nav}<article>${para(1)}${para(2)}<p>${closing}</p>${links}</article></body></html>`, 'http://news.test/a');
      const scored = scorePage(doc.body);
      const answer = doc.querySelector('article')!;
      dropBoilerplateBlocks(answer, scored);
      return plainText(answer);
    };
    expect(read('Also on this site')).not.toContain('Also on this site');
    expect(read('See you all next winter!')).toContain('See you all next winter!');
  });

  it('inside the answer, keeps a linked line that reads as a sentence (a list item, a line of dialogue) and drops a linked headline', () => {
    const read = (line: string) => {
      const doc = parseDocument(`<html><body>${nav}<article>${para(1)}<p>${line}</p>${para(2)}</article></body></html>`, 'http://news.test/a');
      const scored = scorePage(doc.body);
      const answer = doc.querySelector('article')!;
      dropBoilerplateBlocks(answer, scored);
      return plainText(answer);
    };
    expect(read('<a href="/put">Where am I going to put it</a>?')).toContain('Where am I going to put it?');
    expect(read('<a href="/p">"I would prefer not to," said the clerk.</a>')).toContain('said the clerk.');
    expect(read('<a href="/f">Storm closes the ferry for a week</a>')).not.toContain('Storm closes the ferry');
    // Too few words to be a sentence: a linked label goes, full stop or not.
    expect(read('<a href="/m">More stories.</a>')).not.toContain('More stories.');
  });

  it('leaves the answer alone when the scorer would take a large part of it (the readings disagree)', () => {
    const doc = parseDocument(`<html><body>${nav}<article>${para(1)}<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/${i}">Linked story number ${i} of the day</a></li>`).join('')}</ul></article></body></html>`, 'http://news.test/a');
    const scored = scorePage(doc.body);
    const answer = doc.querySelector('article')!;
    expect(dropBoilerplateBlocks(answer, scored)).toBe(0);
    expect(plainText(answer)).toContain('Linked story number 11');
  });

  it('through the pipeline with the vote on: Readability alone keeps the teaser, the vote does not, and says why', () => {
    const fetched = { url: 'http://news.test/a', status: 200, headers: { 'content-type': 'text/html' }, html: `<html><head><title>The harbour wall</title></head><body>${page}</body></html>`, rendered: false };
    const alone = scrapePage(fetched, { format: 'text', mainContent: true, readabilityOnly: true });
    expect(alone.content_text).toContain('Read more: storm closes the ferry');
    const voted = scrapePage(fetched, { format: 'text', mainContent: true, steps: { vote: true } });
    expect(voted.content_text).not.toContain('Read more: storm closes the ferry');
    expect(voted.content_text).toContain('It worked.');
    expect(String(voted.metadata.extraction)).toMatch(/page scorer calls boilerplate/);
  });
});
