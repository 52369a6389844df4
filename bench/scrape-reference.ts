// web.scrape's Readability step on two DOMs: linkedom (what webcap runs) and
// jsdom (the reference: a spec-following DOM, the one Mozilla tests
// Readability with). Same Readability, same options, same text and Markdown
// steps; only the DOM differs. Used by the bench and by the parity unit test.
import { JSDOM } from 'jsdom';
import { parseDocument } from '../host/scrape/dom.js';
import { toMarkdown } from '../host/scrape/markdown.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';

/** The saved real-world-shaped article pages (file, the URL they were served at): the parity tests and the bench read the same ones. */
export const SAVED_ARTICLES: ReadonlyArray<readonly [string, string]> = [
  ['tests/fixtures/articles/news-article.html', 'http://news.test/2024/05/14/tidal-barrier-approved'],
  ['tests/fixtures/articles/blog-post.html', 'http://blog.test/2023/11/02/potager-balcon/'],
  ['tests/fixtures/articles/docs-page.html', 'http://docs.test/en/stable/reference/configuration.html'],
  // The DOM Chromium produced for js-article.html after its script ran (what the pipeline receives).
  ['tests/fixtures/articles/js-article.rendered.html', 'http://magazin.test/stories/nachtzug-alpen'],
  ['tests/fixtures/articles/dom-features.html', 'https://feature.test/path/page.html'],
];

export interface ReadResult {
  title: string | null;
  byline: string | null;
  publishedTime: string | null;
  lang: string | null;
  excerpt: string | null;
  siteName: string | null;
  text: string;
  markdown: string;
}

function result(article: ReturnType<typeof readArticle>): ReadResult {
  return {
    title: article?.title ?? null, byline: article?.byline ?? null, publishedTime: article?.publishedTime ?? null,
    lang: article?.lang ?? null, excerpt: article?.excerpt ?? null, siteName: article?.siteName ?? null,
    text: article ? plainText(article.content) : '', markdown: article ? toMarkdown(article.content.innerHTML) : '',
  };
}

export function readWithLinkedom(html: string, url: string): ReadResult {
  return result(readArticle(parseDocument(html, url)));
}

export function readWithJsdom(html: string, url: string): ReadResult {
  // jsdom knows the page URL, so Readability's own link fixing works there; scripts never run.
  const { document } = new JSDOM(html, { url }).window;
  return result(readArticle(document as unknown as Document));
}

// One measure of agreement for the bench and the adaptive scrape's domain memory.
export { textAgreement } from '../host/scrape/render-memory.js';
