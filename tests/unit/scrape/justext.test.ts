// The jusText reading (justext.ts, stopwords.ts) and its agreement with main's
// answer (justext-agree.ts), on a small hand-written article page: what a
// reader would call boilerplate at the end of the article (a photo caption, a
// newsletter box, a list of related headlines) goes with the step and stays
// without it; a short paragraph between two of the article's stays; a block
// the page's articleBody holds stays; a page jusText reads as mostly
// boilerplate keeps its answer whole.
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../host/scrape/dom.js';
import { readJusText } from '../../../host/scrape/justext.js';
import { dropJusTextBad } from '../../../host/scrape/justext-agree.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { stopwordsFor } from '../../../host/scrape/stopwords.js';
import { plainText } from '../../../host/scrape/text.js';
import type { RefineSteps } from '../../../host/scrape/types.js';

const para = (i: number) => `<p>Paragraph ${i}: the harbour wall was rebuilt after the storm, and the work went on through the whole of a long and wet winter, because the town had no other way to keep the sea out of its streets, and the council said that it would not wait for the money from the state.</p>`;
const nav = '<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>';
const caption = 'The new wall at high tide. Photo: Jane Doe / Coast Agency';
const newsletter = '<div class="c1"><h4>The Morning Tide</h4><p>Our briefing, every weekday at seven.</p><p><a href="/signup">Sign up now</a></p></div>';
const related = '<p><strong>Also on the coast:</strong></p><p><a href="/d">Lighthouse repainted for the summer season</a></p><p><a href="/e">Beach cleaned by two hundred volunteers</a></p>';
const page = (story: string, head = '') => `<html lang="en"><head><title>The harbour wall</title>${head}</head><body>${nav}<main><div class="story"><h1>The harbour wall is rebuilt</h1>${story}</div></main><footer><p>© 2024 Coast News</p></footer></body></html>`;
const article = page(`${para(1)}<p>It worked.</p>${para(2)}${para(3)}<figure><img src="/wall.jpg" alt="The wall"><figcaption>${caption}</figcaption></figure>${newsletter}${related}`);

const scrape = (html: string, steps: Partial<RefineSteps>) =>
  scrapePage({ url: 'http://news.test/a', status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false }, { format: 'text', mainContent: true, steps });

describe('the jusText reading combined with the answer', () => {
  const without = scrape(article, {}).content_text;
  const withStep = scrape(article, { justext: true });

  it('drops a photo caption at the end of the article', () => {
    expect(without).toContain(caption);
    expect(withStep.content_text).not.toContain(caption);
  });

  it('drops a newsletter box', () => {
    expect(without).toContain('Our briefing, every weekday at seven.');
    expect(without).toContain('Sign up now');
    expect(withStep.content_text).not.toContain('The Morning Tide');
    expect(withStep.content_text).not.toContain('Our briefing');
    expect(withStep.content_text).not.toContain('Sign up now');
  });

  it('drops a list of related headlines with its label', () => {
    expect(without).toContain('Lighthouse repainted for the summer season');
    expect(withStep.content_text).not.toContain('Also on the coast');
    expect(withStep.content_text).not.toContain('Lighthouse repainted');
    expect(withStep.content_text).not.toContain('Beach cleaned');
  });

  it('keeps the article whole, and says what it removed', () => {
    for (const i of [1, 2, 3]) expect(withStep.content_text).toContain(`Paragraph ${i}:`);
    expect(withStep.content_text).toContain('It worked.');
    expect(String(withStep.metadata.extraction)).toMatch(/\d+ block\(s\) jusText calls boilerplate removed/);
  });

  it('keeps a short paragraph between two good ones, even when every jusText-bad block of the answer goes', () => {
    const inside = scrape(article, { justext: true, justextInside: true }).content_text;
    expect(inside).toContain('It worked.');
    expect(inside).not.toContain('Sign up now');
    // The same short line among boilerplate is boilerplate: its neighbours decide, not the line.
    const doc = parseDocument(page(`${para(1)}${para(2)}${newsletter}<p>It worked.</p>${related}`), 'http://news.test/a');
    const reading = readJusText(doc.body, stopwordsFor('en', '')!);
    const verdict = (text: string) => reading.good[reading.blocks.findIndex((b) => b.text === text)];
    expect(verdict('It worked.')).toBe(false);
    const between = parseDocument(article, 'http://news.test/a');
    const again = readJusText(between.body, stopwordsFor('en', '')!);
    expect(again.good[again.blocks.findIndex((b) => b.text === 'It worked.')]).toBe(true);
  });

  it('keeps a block the page\'s JSON-LD articleBody holds', () => {
    const body = ['Paragraph 1', 'Paragraph 2', 'Paragraph 3'].map((p) => `${p}: the harbour wall was rebuilt after the storm.`).join('\n') + `\n${caption}`;
    const ld = `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', headline: 'The harbour wall is rebuilt', articleBody: body })}</script>`;
    const read = scrape(page(`${para(1)}${para(2)}${para(3)}<figure><img src="/wall.jpg" alt="The wall"><figcaption>${caption}</figcaption></figure>${newsletter}`, ld), { justext: true }).content_text;
    expect(read).toContain(caption);
    expect(read).not.toContain('Sign up now');
  });

  it('leaves the answer whole when jusText would take a large part of it (the readings disagree)', () => {
    const doc = parseDocument(page(`${para(1)}${Array.from({ length: 12 }, (_, i) => `<p><a href="/${i}">Linked story number ${i} of the day</a></p>`).join('')}`), 'http://news.test/a');
    const reading = readJusText(doc.body, stopwordsFor('en', '')!);
    const answer = doc.querySelector('.story')!;
    expect(dropJusTextBad(answer, reading, undefined, false)).toBe(0);
    expect(plainText(answer)).toContain('Linked story number 11');
  });
});

describe('the stopword list', () => {
  it('is the declared language\'s, else the one the text uses most, else none', () => {
    expect(stopwordsFor('de-DE', '')?.has('und')).toBe(true);
    expect(stopwordsFor(undefined, 'Der Hafen wurde nach dem Sturm wieder aufgebaut, und die Arbeit ging den ganzen Winter über weiter, weil die Stadt das Meer nicht anders aus den Straßen halten konnte.')?.has('und')).toBe(true);
    expect(stopwordsFor(undefined, 'Xylophon Quark Zebra 2024 42')).toBeUndefined();
  });
});
