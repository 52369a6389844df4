// Is the page what was asked for, or a CAPTCHA, an anti-bot block page or an
// HTTP error? Decided on the served/rendered HTML, so the browser and the
// plain-HTTP fallback agree. A CAPTCHA counts only when the page shows one: a
// challenge widget, frame or form in the document (by the vendors' own class,
// id and frame hosts), or a script from a host that serves nothing but
// challenges. A page that only mentions a vendor (a script that would load
// reCAPTCHA for a comment form, an article about CAPTCHAs) shows none. Even a
// shown widget is not enough: a blog post with a reCAPTCHA under its comment
// form is still a blog post, so a widget counts on an error status or on a page
// with little text.
import { WebcapError } from '../../manifests/errors.js';
import { parseDocument } from './dom.js';
import { countWords } from './text.js';
import type { FetchedPage } from './types.js';

/** A vendor's marker: in the markup (attributes of the elements that show a challenge) or in the text a reader sees (entities decoded). */
interface Marker { vendor: string; html?: RegExp; text?: RegExp }

// Matched against the shown-challenge evidence of the document (challengeEvidence):
// one line per element, "<tag> id=… class=… src=…".
const CAPTCHAS: Marker[] = [
  { vendor: 'recaptcha', html: /\bclass=[^\n]*\bg-recaptcha\b|^iframe [^\n]*src=\S*(?:www\.google\.com|www\.recaptcha\.net)\/recaptcha\//im },
  { vendor: 'hcaptcha', html: /\bclass=[^\n]*\bh-captcha\b|^iframe [^\n]*src=\S*hcaptcha\.com\//im },
  { vendor: 'cloudflare_challenge', html: /\bid=challenge-(?:running|form|stage|error-text)\b|\bclass=[^\n]*\bcf-turnstile\b|^iframe [^\n]*src=\S*challenges\.cloudflare\.com\//im },
  { vendor: 'datadome', html: /^(?:iframe|script) [^\n]*src=\S*captcha-delivery\.com/im },
  { vendor: 'perimeterx', html: /\bid=px-captcha\b|^(?:iframe|script) [^\n]*src=\S*captcha\.px-cdn\.net/im },
  { vendor: 'arkose', html: /^iframe [^\n]*src=\S*(?:arkoselabs\.com|funcaptcha\.com)|\bid=funcaptcha\b/im },
  { vendor: 'aws_waf', html: /^(?:iframe|script) [^\n]*src=\S*captcha\.awswaf\.com|\bid=(?:captcha-container|aws-?waf-?captcha)\b/im },
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

/**
 * What shows a challenge: one line per element that could (a frame, an external script, any element
 * with a class or id naming a widget), "<tag> id=… class=… src=…", lower-cased. Inline script text is
 * not read, so a script that merely names a vendor is no evidence; elements a page hides are skipped.
 */
function challengeEvidence(doc: Document): string {
  const lines: string[] = [];
  for (const el of doc.querySelectorAll('iframe[src], script[src], [id], [class]')) {
    if (isHidden(el)) continue;
    const tag = el.nodeName.toLowerCase();
    const src = tag === 'iframe' || tag === 'script' ? el.getAttribute('src') ?? '' : '';
    lines.push(`${tag} id=${el.getAttribute('id') ?? ''} class=${(el.getAttribute('class') ?? '').replace(/\s+/g, ' ')} src=${src.replace(/\s+/g, '')}`.toLowerCase());
  }
  return lines.join('\n');
}

/** Hidden by the page itself (the hidden attribute or an inline display:none, on it or an ancestor). */
function isHidden(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement) {
    if (e.hasAttribute('hidden') || /display\s*:\s*none/i.test(e.getAttribute('style') ?? '')) return true;
  }
  return false;
}

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

type PageVerdict =
  | { ok: true }
  | { ok: false; code: 'captcha_detected' | 'blocked'; vendor: string }
  | { ok: false; code: 'http_error'; status: number };

/** `text`: the page title, a newline, then the body's visible text; `doc`: the page parsed (parsed here when not given). */
export function classifyPage(page: FetchedPage, text: string, doc?: Document): PageVerdict {
  const status = page.status ?? 200;
  const error = status >= 400;
  const thin = countWords(text) < THIN_PAGE_WORDS;
  const head = text.slice(0, CLASSIFIED_TEXT_CHARS);
  // Cloudflare labels its challenge responses; no guessing needed.
  if (/challenge/i.test(page.headers['cf-mitigated'] ?? '')) return { ok: false, code: 'captcha_detected', vendor: 'cloudflare_challenge' };
  if (error || thin) {
    const captcha = found(CAPTCHAS, challengeEvidence(doc ?? parseDocument(page.html, page.url)), head);
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
