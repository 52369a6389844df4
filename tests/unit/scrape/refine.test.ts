// The rules that keep the cleaning and the second opinion to what generalises:
// a list of links inside the text stays (only lists at the answer's edges go),
// a container holding several stories is not taken for the one Readability
// found, and a thin answer is swapped only for a container that adds an
// article's worth of prose. Each is checked beside the rule turned off.
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { refineArticle, type RefineChoice } from '../../../host/scrape/refine.js';

const FIRST: RefineChoice = { clean: true, keepListsInText: false, proseWidgetsStay: false, secondOpinion: true, thinSecondOpinionAddsArticle: false, secondOpinionOneArticle: false };
const times = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');
const prose = (topic: string, i: number) => `<p>Paragraph ${i} about ${topic} says what happened, who was there and why it matters to the people who live nearby.</p>`;
const element = (html: string) => parseDocument(`<!doctype html><html><body>${html}</body></html>`, 'http://news.test/').querySelector('body > *')!;

describe('cleaning: link lists', () => {
  const page = `<!doctype html><html><head><title>About this site</title></head><body><div id="about">
<h1>About this site</h1>${times(3, (i) => prose('the site', i))}
<h2>Apps I use</h2><ul>${['BBEdit', 'Acorn', 'MarsEdit', 'Transmit', 'Napkin'].map((a) => `<li><a href="/apps/${a}">${a}</a></li>`).join('')}</ul>
${times(3, (i) => prose('the server', i + 3))}
<ul>${times(6, (i) => `<li><a href="/more/${i}">More story ${i}</a></li>`)}</ul></div></body></html>`;
  const read = (keepListsInText: boolean) => scrapePage({ url: 'http://site.test/about', status: 200, headers: {}, html: page, rendered: false }, { format: 'text', mainContent: true, steps: { keepListsInText } }).content_text;

  it('a list of linked names between paragraphs of the text stays; the link list after the last paragraph goes', () => {
    const text = read(true);
    expect(text).toContain('BBEdit\nAcorn');
    expect(text).toContain('Paragraph 5 about the server');
    expect(text).not.toContain('More story 3');
  });

  it('without the rule, the list inside the text went too', () => {
    expect(read(false)).not.toContain('BBEdit');
  });
});

describe('the second opinion', () => {
  // Readability found the second of three stories in a feed; <main> holds all three.
  const story = (n: number) => `<article><h2>Story ${n}</h2>${times(8, (i) => prose(`story ${n}`, i))}</article>`;
  const feed = () => [element(`<main>${story(1)}${story(2)}${story(3)}</main>`)];
  const found = () => element(`<div>${times(8, (i) => prose('story 2', i))}</div>`);

  it('a container of several <article> elements is a feed: Readability\'s story is kept', () => {
    const r = refineArticle(found(), feed, { ...FIRST, secondOpinionOneArticle: true });
    expect(r.how).toBe('readability');
    expect(r.root.textContent).not.toContain('about story 1');
  });

  it('without the rule, the whole feed was taken', () => {
    expect(refineArticle(found(), feed, FIRST).how).toMatch(/^second opinion: main/);
  });

  // A thin answer (under 80 words), and the page's <article> holding it and a footer line.
  const thin = () => element(`<div>${times(3, (i) => prose('the meeting', i))}</div>`);
  const withFooter = () => [element(`<article>${times(3, (i) => prose('the meeting', i))}<p>Posted in Meetings, Town news, Local politics by admin on 11 April 2012. Bookmark the permalink. Leave a comment.</p></article>`)];
  const withMore = () => [element(`<article>${times(8, (i) => prose('the meeting', i))}</article>`)];

  it('a thin answer is not swapped for a container that adds only a footer line', () => {
    const r = refineArticle(thin(), withFooter, { ...FIRST, thinSecondOpinionAddsArticle: true });
    expect(r.how).toBe('readability');
    expect(r.root.textContent).not.toContain('Bookmark the permalink');
  });

  it('without the rule, the footer line came with the swap', () => {
    expect(refineArticle(thin(), withFooter, FIRST).root.textContent).toContain('Bookmark the permalink');
  });

  it('a thin answer is still swapped for a container that adds paragraphs of prose', () => {
    const r = refineArticle(thin(), withMore, { ...FIRST, thinSecondOpinionAddsArticle: true });
    expect(r.how).toMatch(/^second opinion: article/);
    expect(r.root.textContent).toContain('Paragraph 7 about the meeting');
  });
});

describe('cleaning: a widget name on the article\'s own prose', () => {
  // The story's middle sits in a wrapper named like a widget ("embed"); a newsletter pitch and a one-line bio are widgets.
  const page = `<!doctype html><html><head><title>The harbour wall</title></head><body><article>
<h1>The harbour wall</h1>${times(3, (i) => prose('the wall', i))}
<div class="story-embed">${times(2, (i) => prose('the storm', i + 3))}</div>
${times(3, (i) => prose('the town', i + 5))}
<div class="newsletter-box"><p>Get the morning briefing in your inbox.</p><p><a href="/signup">Sign up</a></p></div>
<div class="author-bio"><p>Jane Roe covers the coast for the paper.</p></div></article></body></html>`;
  const read = (proseWidgetsStay: boolean) => scrapePage({ url: 'http://news.test/wall', status: 200, headers: {}, html: page, rendered: false }, { format: 'text', mainContent: true, steps: { proseWidgetsStay } }).content_text;

  it('paragraphs of prose under a widget name stay; the newsletter pitch and the bio still go', () => {
    const text = read(true);
    expect(text).toContain('Paragraph 3 about the storm');
    expect(text).toContain('Paragraph 4 about the storm');
    expect(text).not.toContain('morning briefing');
    expect(text).not.toContain('Jane Roe');
  });

  it('without the rule, the name decided and the paragraphs went', () => {
    const text = read(false);
    expect(text).not.toContain('about the storm');
    expect(text).toContain('Paragraph 7 about the town');
  });
});
