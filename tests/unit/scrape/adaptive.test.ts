// The decisions of web.scrape's auto mode as pure functions: when the served
// HTML needs a browser (app-shell.ts), and what a comparison teaches the
// domain memory (render-memory.ts). The paths themselves run in tests/e2e/scrape.test.ts.
import { describe, expect, it } from 'vitest';
import { readShellSigns, renderReason } from '../../../host/scrape/app-shell.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { plainText } from '../../../host/scrape/text.js';
import { learn, LEARN_PAGES } from '../../../host/scrape/render-memory.js';

const reason = (body: string, articleWords: number) => {
  const doc = parseDocument(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`, 'http://a.test/');
  return renderReason(readShellSigns(doc, plainText(doc.body)), articleWords);
};
const prose = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('when a page read over HTTP needs the browser', () => {
  it.each([
    ['an empty React root', '<div id="root"></div><script type="module" src="/app.js"></script>', 0, 'app shell: #root is empty until a script fills it'],
    ['a Next.js mount with a spinner', '<div id="__next"><div class="spinner">Loading…</div></div>', 2, 'app shell: #__next is empty until a script fills it'],
    ['a noscript notice', '<noscript>Please enable JavaScript to view this site.</noscript><div class="x">' + prose(50) + '</div>', 150, 'app shell: a <noscript> notice asks for JavaScript'],
    ['little text and scripts', '<p>Hello there.</p><script src="/a.js"></script>', 2, 'little readable text (2 words) and 1 script(s) that may write more'],
    ['little text, no scripts', '<p>Gone fishing.</p>', 2, 'little readable text (2 words)'],
    ['an article', `<article><p>${prose(300)}</p></article><script src="/a.js"></script>`, 300, undefined],
    ['an article that also has an empty #app elsewhere', `<div id="app"></div><article><p>${prose(400)}</p></article>`, 400, undefined],
    ['a noscript tracking pixel on a long page', `<noscript><img src="/px.gif"></noscript><article><p>${prose(300)}</p></article>`, 300, undefined],
  ])('%s', (_n, body, words, expected) => expect(reason(body, words)).toBe(expected));
});

describe('domain memory: what a comparison teaches', () => {
  it('same text: counted, rendering not needed', () => {
    expect(learn(undefined, 'http://a.test/1', 'the same words here', 'the same words here')).toEqual({ compared: 1, render_needed: false, evidence: undefined });
  });

  it('rendering added most of the text: needed, with the evidence', () => {
    const m = learn({ compared: 1, render_needed: false }, 'http://a.test/2', 'teaser', `teaser ${prose(40)}`);
    expect(m).toMatchObject({ compared: 2, render_needed: true });
    expect(m.evidence).toMatch(/^http:\/\/a\.test\/2: rendered text shared 0\.\d\d of its words with the HTTP text$/);
  });

  it('once needed, a later page that agrees does not undo it', () => {
    const m = learn({ compared: 2, render_needed: true, evidence: 'e' }, 'http://a.test/3', 'x y', 'x y');
    expect(m).toEqual({ compared: 3, render_needed: true, evidence: 'e' });
    expect(LEARN_PAGES).toBe(3);
  });
});
