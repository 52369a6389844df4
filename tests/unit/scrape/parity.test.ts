// Readability on linkedom (what web.scrape runs) against Readability on jsdom
// (the reference DOM) on the saved pages: same Readability, same options, same
// text and Markdown steps, so any difference would come from the DOM alone.
// Known linkedom gaps and how webcap closes them (host/scrape/dom.ts, markdown.ts):
//  - no base URL (document.baseURI is null): URLs are made absolute before Readability;
//  - no table.rows: turndown parses the article HTML with its own DOM;
//  - elements Readability creates serialise upper-case (<DIV>) in content_html only.
// With those, every field and the text below are identical.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAVED_ARTICLES, readWithJsdom, readWithLinkedom, textAgreement } from '../../../bench/scrape-reference.js';
import { projectRoot } from '../../../manifests/load.js';

const PAGES = SAVED_ARTICLES.map(([file, url]) => [file, url]);

describe('Readability on linkedom vs on jsdom', () => {
  it.each(PAGES)('%s: same title, byline, date, language, excerpt, text and Markdown', (file, url) => {
    const html = readFileSync(join(projectRoot(), file), 'utf8');
    const ours = readWithLinkedom(html, url);
    const reference = readWithJsdom(html, url);
    expect(ours.text.length).toBeGreaterThan(200);
    expect(textAgreement(ours.text, reference.text)).toBe(1);
    expect(ours).toEqual(reference);
  });

  it('the agreement measure tells different texts apart', () => {
    expect(textAgreement('a b c d', 'a b c d')).toBe(1);
    expect(textAgreement('a b c d', 'a b')).toBeCloseTo(2 * 2 / 6);
    expect(textAgreement('one two', 'three four')).toBe(0);
  });
});
