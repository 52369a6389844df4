// Extraction quality on the corpus (bench/corpus: pages with hand-checked
// main text) must not regress: a floor on mean token F1 of content_text on
// the default path, and never below Readability alone on the same pages.
// The floor is the measured value less a small margin (0.9733 on 4 pages
// when set); the issue's target, 0.975, is reported by `npm run bench`.
// Plus the two refinements on pages made to show them.
import { describe, expect, it } from 'vitest';
import { baselineText, loadCorpus, meanScore, pipelineText, tokenScore } from '../../../bench/quality.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { mainContainers, refineArticle } from '../../../host/scrape/refine.js';

const F1_FLOOR = 0.97;
const staticPage = (html: string) => scrapePage({ url: 'http://kitchen.test/plum-cake', status: 200, headers: {}, html, rendered: false }, { format: 'markdown', mainContent: true });
const items = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');

describe('corpus quality (bench/corpus)', () => {
  const corpus = loadCorpus();

  it(`mean token F1 of content_text ≥ ${F1_FLOOR}, and above Readability alone`, () => {
    expect(corpus.length).toBeGreaterThanOrEqual(4);
    const ours = meanScore(corpus, pipelineText);
    const baseline = meanScore(corpus, baselineText);
    expect(ours.f1).toBeGreaterThanOrEqual(F1_FLOOR);
    expect(ours.f1).toBeGreaterThan(baseline.f1);
    for (const page of ours.perPage) expect(page.f1, page.name).toBeGreaterThan(0.9);
    // Where Readability alone dropped most of a newsletter's items, the second opinion brings them back.
    const newsletter = (s: typeof ours) => s.perPage.find((p) => p.name === 'readability/indieiosfocus')!;
    expect(newsletter(ours).recall).toBe(1);
    expect(newsletter(baseline).recall).toBeLessThan(0.5);
  });

  it('the ground truth is the expected article text (checked by hand for 001)', () => {
    const page = corpus.find((p) => p.name === 'readability/001')!;
    expect(page.truth).toMatch(/^So finally you're testing your frontend JavaScript code\? Great!/);
    expect(page.truth).toMatch(/Happy testing!$/);
    for (const chrome of ['I code stuff', 'Permalink', 'Tweet at me', 'Photography']) expect(page.truth).not.toContain(chrome);
  });

  it.each([
    ['identical', 'a b c', 'a b c', 1, 1],
    ['half the words extra', 'a b c d', 'a b', 0.5, 1],
    ['half the words missing', 'a b', 'a b c d', 1, 0.5],
    ['case and punctuation do not count', 'Hello, World!', 'hello world', 1, 1],
    ['multisets: a repeated word counts once per occurrence', 'a a a', 'a', 1 / 3, 1],
  ])('tokenScore: %s', (_n, predicted, truth, precision, recall) => {
    expect(tokenScore(predicted, truth)).toMatchObject({ precision, recall });
  });
});

describe('boilerplate removal and the second opinion', () => {
  const recipe = `<!doctype html><html lang="en"><head><title>Plum cake</title></head><body>
<header><nav>${items(12, (i) => `<a href="/c${i}">Category ${i}</a> `)}</nav></header>
<main><h1>Plum cake</h1><p>Serves 8. Takes an hour.</p>
<h2>Ingredients</h2><ul>${['250 g flour', '200 g butter', '150 g sugar', '4 eggs', '1 kg plums'].map((x) => `<li>${x}</li>`).join('')}</ul>
<figure><img src="/cake.jpg" alt="cake"><figcaption>The cake fresh from the oven.</figcaption></figure>
<h2>Method</h2><ol>${['Heat the oven to 180 °C.', 'Cream butter and sugar.', 'Beat in the eggs one by one.', 'Bake for 45 minutes.'].map((x) => `<li>${x}</li>`).join('')}</ol></main>
<aside><ul>${items(15, (i) => `<li><a href="/r${i}">Recipe number ${i} with a long title here</a></li>`)}</ul></aside></body></html>`;

  it('a menu Readability keeps beside short lines goes; the lists and the figure caption stay', () => {
    const r = staticPage(recipe);
    expect(r.content_text).not.toContain('Category 3');
    for (const kept of ['250 g flour', 'The cake fresh from the oven.', 'Bake for 45 minutes.']) expect(r.content_text).toContain(kept);
    expect(r.metadata.extraction).toBe('readability, 1 boilerplate block(s) removed');
  });

  it('a thin, link-heavy answer is replaced by the page\'s own <main>', () => {
    const article = parseDocument(`<div>${items(6, (i) => `<a href="/x${i}">Link ${i}</a> `)}<p>Short.</p></div>`, 'http://a.test/').querySelector('div')!;
    const story = items(12, (i) => `<p>Paragraph ${i} of the story, with enough words in it to read as text.</p>`);
    const page = parseDocument(`<body><nav>${items(5, (i) => `<a href="/n${i}">Nav ${i}</a>`)}</nav><main>${story}</main></body>`, 'http://a.test/');
    const refined = refineArticle(article, () => mainContainers(page));
    expect(refined.how).toMatch(/^second opinion: main \(Readability kept \d+ words\)$/);
    expect(refined.root.textContent).toContain('Paragraph 11 of the story');
    expect(refined.root.textContent).not.toContain('Nav 1');
  });
});
