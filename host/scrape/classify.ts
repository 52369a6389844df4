// Is the page what was asked for, or a CAPTCHA, an anti-bot block page or an
// HTTP error? Decided on the served/rendered HTML, so the browser and the
// plain-HTTP fallback agree. Markers are the ones the vendors' pages carry
// (script hosts, widget classes, challenge ids, titles). A marker alone is not
// enough: a blog post with a reCAPTCHA under its comment form is still a blog
// post, so a marker counts on an error status or on a page with little text.
import { WebcapError } from '../../manifests/errors.js';
import { countWords } from './text.js';
import type { FetchedPage } from './types.js';

/** A vendor's marker: in the markup (script hosts, widget classes, ids) or in the text a reader sees (entities decoded). */
interface Marker { vendor: string; html?: RegExp; text?: RegExp }

const CAPTCHAS: Marker[] = [
  { vendor: 'recaptcha', html: /(?:www\.google\.com|www\.recaptcha\.net)\/recaptcha\/|class=["'][^"']{0,600}\bg-recaptcha\b/i },
  { vendor: 'hcaptcha', html: /hcaptcha\.com\/1\/api\.js|class=["'][^"']{0,600}\bh-captcha\b/i },
  { vendor: 'cloudflare_challenge', html: /\/cdn-cgi\/challenge-platform\/|window\._cf_chl_opt|id=["']challenge-(?:running|form|stage|error-text)["']|challenges\.cloudflare\.com\/turnstile|class=["'][^"']{0,600}\bcf-turnstile\b/i },
  { vendor: 'datadome', html: /captcha-delivery\.com/i },
  { vendor: 'perimeterx', html: /id=["']px-captcha["']|captcha\.px-cdn\.net|_pxCaptcha/i },
  { vendor: 'arkose', html: /arkoselabs\.com|funcaptcha/i },
  { vendor: 'aws_waf', html: /captcha\.awswaf\.com|AwsWafCaptcha/i },
  { vendor: 'generic', text: /^[^\n]*(?:captcha|are you a (?:human|robot)|verify you are (?:a )?human|human verification)/i },
];

// Every gap between two phrases of a marker is bounded ({0,600}, not *): with
// two unbounded gaps a page repeating the first phrases without the last one
// backtracks cubically (a 50 KB 404 page held the event loop for 17 s).
const BLOCKS: Marker[] = [
  { vendor: 'cloudflare', html: /id=["']cf-error-details["']/i, text: /Sorry, you have been blocked|Cloudflare Ray ID[\s\S]{0,600}(?:Access denied|been blocked)/i },
  { vendor: 'akamai', text: /Access Denied[\s\S]{0,600}You don't have permission to access[\s\S]{0,600}Reference #[\d.a-f]+/i },
  { vendor: 'imperva', html: /_Incapsula_Resource/i, text: /Incapsula incident ID|Request unsuccessful\. Incapsula/i },
  { vendor: 'sucuri', text: /Sucuri WebSite Firewall - Access Denied|Access Denied - Sucuri Website Firewall/i },
  { vendor: 'perimeterx', text: /Access to this page has been denied/i },
  { vendor: 'distil', text: /Pardon Our Interruption/i },
  { vendor: 'cloudfront', text: /The request could not be satisfied[\s\S]{0,600}Request blocked/i },
];

function found(markers: Marker[], html: string, text: string): Marker | undefined {
  return markers.find((m) => (m.html?.test(html) ?? false) || (m.text?.test(text) ?? false));
}

// Words of real text below which a marked page is taken to be about the marker.
const THIN_PAGE_WORDS = 150;
// Block and CAPTCHA pages say what they are near the top; reading only the
// start of the visible text keeps a huge page's classification cheap.
const CLASSIFIED_TEXT_CHARS = 20_000;
const BLOCK_STATUSES = new Set([401, 403, 405, 406, 429, 503]);
const GENERIC_BLOCK = /access (?:is )?denied|you have been blocked|request (?:was )?blocked|automated (?:access|requests|queries)|unusual traffic|bot detected/i;

export type PageVerdict =
  | { ok: true }
  | { ok: false; code: 'captcha_detected' | 'blocked'; vendor: string }
  | { ok: false; code: 'http_error'; status: number };

/** `text`: the page title, a newline, then the body's visible text. */
export function classifyPage(page: FetchedPage, text: string): PageVerdict {
  const status = page.status ?? 200;
  const error = status >= 400;
  const thin = countWords(text) < THIN_PAGE_WORDS;
  const head = text.slice(0, CLASSIFIED_TEXT_CHARS);
  // Cloudflare labels its challenge responses; no guessing needed.
  if (/challenge/i.test(page.headers['cf-mitigated'] ?? '')) return { ok: false, code: 'captcha_detected', vendor: 'cloudflare_challenge' };
  if (error || thin) {
    const captcha = found(CAPTCHAS, page.html, head);
    if (captcha) return { ok: false, code: 'captcha_detected', vendor: captcha.vendor };
    const block = found(BLOCKS, page.html, head);
    if (block) return { ok: false, code: 'blocked', vendor: block.vendor };
  }
  if (BLOCK_STATUSES.has(status) && thin && GENERIC_BLOCK.test(head)) return { ok: false, code: 'blocked', vendor: 'unknown' };
  if (error) return { ok: false, code: 'http_error', status };
  return { ok: true };
}

export function verdictError(verdict: Exclude<PageVerdict, { ok: true }>, page: FetchedPage): WebcapError {
  if (verdict.code === 'http_error') {
    return new WebcapError('http_error', `${page.url} answered HTTP ${verdict.status}`, { status: verdict.status, url: page.url });
  }
  const details = { url: page.url, status: page.status, vendor: verdict.vendor };
  if (verdict.code === 'captcha_detected') {
    return new WebcapError('captcha_detected', `${page.url} shows a CAPTCHA or bot challenge (${verdict.vendor}) instead of the page; webcap does not solve CAPTCHAs: open it with a person in the loop or try later`, details);
  }
  return new WebcapError('blocked', `${page.url} refused the request with an anti-bot block page (${verdict.vendor}); webcap does not work around bot protection`, details);
}
