// CAPTCHA, anti-bot block, HTTP error or content: decided from the page as
// served or rendered. The bot pages are saved copies of what the vendors send.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyPage } from '../../../host/scrape/classify.js';
import { decodeBody } from '../../../host/scrape/charset.js';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';
import { countWords, plainText } from '../../../host/scrape/text.js';
import type { FetchedPage } from '../../../host/scrape/types.js';
import { articleFile, botPage } from '../../fixtures/articles/site.js';

function verdict(html: string, status: number, headers: Record<string, string> = {}) {
  const page: FetchedPage = { url: 'https://news.test/x', status, headers, html, rendered: true };
  const doc = parseDocument(html, page.url);
  return classifyPage(page, `${doc.querySelector('title')?.textContent ?? ''}\n${plainText(doc.body)}`, doc);
}

// A real dw.com article (from trafilatura's test pages, Apache-2.0): an inline script builds a
// script element for www.google.com/recaptcha/api.js (for its comment form); no widget is shown.
const DW_ARTICLE = join(import.meta.dirname, '..', '..', '..', 'bench', 'corpus', 'trafilatura', 'pages', 'dw.com.colonial.html');
const dwArticle = () => decodeBody(readFileSync(DW_ARTICLE), 'text/html');

describe('classifyPage', () => {
  it.each([
    ['recaptcha.html', 429, {}, 'captcha_detected', 'recaptcha'],
    ['hcaptcha.html', 403, {}, 'captcha_detected', 'hcaptcha'],
    ['cloudflare-challenge.html', 403, { 'cf-mitigated': 'challenge' }, 'captcha_detected', 'cloudflare_challenge'],
    ['cloudflare-challenge.html', 503, {}, 'captcha_detected', 'cloudflare_challenge'],
    ['cloudflare-challenge.html', 200, {}, 'captcha_detected', 'cloudflare_challenge'],
    ['cloudflare-blocked.html', 403, {}, 'blocked', 'cloudflare'],
    ['akamai-denied.html', 403, {}, 'blocked', 'akamai'],
  ])('%s (HTTP %i) → %s', (file, status, headers, code, vendor) => {
    expect(verdict(botPage(file), status, headers)).toEqual({ ok: false, code, vendor });
  });

  it('an article with a reCAPTCHA under its comment form is still the article', () => {
    expect(articleFile('blog-post.html')).toContain('g-recaptcha');
    expect(verdict(articleFile('blog-post.html'), 200)).toEqual({ ok: true });
  });

  it('a real reCAPTCHA challenge page is a CAPTCHA even on a 200: it shows the widget', () => {
    expect(botPage('recaptcha.html')).toContain('class="g-recaptcha"');
    expect(verdict(botPage('recaptcha.html'), 200)).toEqual({ ok: false, code: 'captcha_detected', vendor: 'recaptcha' });
  });

  it('the same page with its widget hidden or gone shows no CAPTCHA (the script alone is no evidence): it stays a block page', () => {
    const blockPage = { ok: false, code: 'blocked', vendor: 'unknown' };
    const hidden = botPage('recaptcha.html').replace('<div id="recaptcha"', '<div hidden id="recaptcha"');
    expect(verdict(hidden, 503)).toEqual(blockPage);
    const scriptOnly = botPage('recaptcha.html').replace(/<div id="recaptcha"[^>]*><\/div>/, '');
    expect(scriptOnly).toContain('www.google.com/recaptcha/api.js');
    expect(verdict(scriptOnly, 503)).toEqual(blockPage);
  });

  it('dw.com\'s article, whose script text names reCAPTCHA, is no CAPTCHA, even on an error status or thin', () => {
    const html = dwArticle();
    expect(html).toContain("'https://www.google.com/recaptcha/api.js?render=explicit");
    // An error status makes every marker count: the mention in script text still shows no challenge.
    expect(verdict(html, 503)).toEqual({ ok: false, code: 'http_error', status: 503 });
    const page = { url: 'https://www.dw.com/en/x', status: 200, headers: {}, html, rendered: false };
    expect(classifyPage(page, 'Colonial\nshort', parseDocument(html, page.url))).toEqual({ ok: true });
  });

  it('dw.com\'s article reads over HTTP as the article (its repeated <html> tags leave the body in place)', () => {
    const content = scrapePage({ url: 'https://www.dw.com/en/x', status: 200, headers: { 'content-type': 'text/html' }, html: dwArticle(), rendered: false }, { format: 'text', mainContent: true });
    expect(content.content_text).toContain('colonial');
    expect(content.word_count).toBeGreaterThan(300);
    expect(countWords(plainText(parseDocument(dwArticle(), 'https://www.dw.com/en/x').body))).toBeGreaterThan(300);
  });

  it('Cloudflare\'s cf-mitigated: challenge header decides even on a 200', () => {
    expect(verdict('<html><body><p>Loading…</p></body></html>', 200, { 'cf-mitigated': 'challenge' })).toMatchObject({ code: 'captcha_detected' });
  });

  it('a short page titled as a human check is a CAPTCHA, whoever serves it', () => {
    expect(verdict('<html><head><title>Human verification</title></head><body><p>Slide to continue.</p></body></html>', 200)).toMatchObject({ code: 'captcha_detected', vendor: 'generic' });
  });

  it('an unknown vendor\'s short 403 "access denied" page is blocked; a plain 403 or 429 is an http_error', () => {
    expect(verdict('<html><body><h1>Access denied</h1><p>Automated requests are not allowed.</p></body></html>', 403)).toEqual({ ok: false, code: 'blocked', vendor: 'unknown' });
    expect(verdict('<html><body><h1>Forbidden</h1></body></html>', 403)).toEqual({ ok: false, code: 'http_error', status: 403 });
    expect(verdict('<html><body><h1>Too Many Requests</h1></body></html>', 429)).toEqual({ ok: false, code: 'http_error', status: 429 });
  });

  it('404 and 500 are http_error with the status; a long article mentioning CAPTCHAs is content', () => {
    expect(verdict('<h1>Not found</h1>', 404)).toEqual({ ok: false, code: 'http_error', status: 404 });
    expect(verdict('<h1>Oops</h1>', 500)).toEqual({ ok: false, code: 'http_error', status: 500 });
    const essay = `<html><head><title>Why CAPTCHA is hard</title></head><body><article>${'<p>Sites use reCAPTCHA and hCaptcha to tell people from bots, and users find them tiring.</p>'.repeat(20)}</article></body></html>`;
    expect(verdict(essay, 200)).toEqual({ ok: true });
  });
  it('a 1 MB 404 page repeating a block page\'s phrases without the last one classifies in well under 2 s (no catastrophic backtracking)', () => {
    // Each vendor phrase pair repeated with the closing phrase missing: the shape
    // that made unbounded [\s\S]* gaps backtrack for hours on a 1 MB body.
    const bait = "Access Denied You don't have permission to access The request could not be satisfied ";
    const text = `Not found\n${bait.repeat(Math.ceil(1_000_000 / bait.length))}`;
    const html = `<html><body><p class="${'x'.repeat(1_000_000)}">${text}</p></body></html>`;
    const page: FetchedPage = { url: 'https://news.test/x', status: 404, headers: {}, html, rendered: false };
    // Backtracking took hours: the test's own timeout (vitest's, for hangs) is the bound, not a stopwatch.
    expect(classifyPage(page, text)).toEqual({ ok: false, code: 'http_error', status: 404 });
  });
});
