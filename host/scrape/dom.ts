// The page as a linkedom Document, made to answer like a browser's DOM where
// linkedom differs and the pipeline would notice:
//  - linkedom has no base URL (document.baseURI is null), so Readability's own
//    "make links absolute" step cannot work; here every URL attribute is made
//    absolute against <base href> or the page URL first, as a browser resolves them;
//  - linkedom gives a document without any element for markup-less text (a
//    plain-text body served as text/html), where a browser builds html/head/body
//    around it; here the text is parsed inside a body too;
//  - a page that opens <html> more than once (one per old-IE conditional
//    comment) gets nested html elements and an empty body from linkedom,
//    where a browser merges every later <html> tag into the first; here the
//    later ones are dropped before parsing, so the body is the page's;
//  - linkedom parses a <template>'s markup as the template's children, where a
//    browser keeps it apart (template.content) and out of the document tree:
//    Readability then scored markup no reader sees, and a template in <head>
//    holding paragraphs made it climb from <head> past <html> and throw. Here
//    the children move into template.content, as a browser has them
//    (a declarative shadow root's template stays: a browser shows it).
// Nothing here changes what Readability decides; it only sees the same DOM.
import { parseHTML } from 'linkedom';

// Attributes that hold one URL, by element.
const URL_ATTRS: Array<[string, string]> = [
  ['a', 'href'], ['area', 'href'], ['img', 'src'], ['source', 'src'], ['video', 'src'], ['video', 'poster'],
  ['audio', 'src'], ['track', 'src'], ['iframe', 'src'], ['embed', 'src'], ['object', 'data'],
  ['blockquote', 'cite'], ['q', 'cite'], ['ins', 'cite'], ['del', 'cite'], ['form', 'action'],
];
// Lazy-loading attributes Readability promotes to src: resolve them too.
const LAZY_ATTRS = ['data-src', 'data-original', 'data-lazy-src'];

// An <html> start tag (not </html>, not <html-something>).
const HTML_START = /<html(?=[\s>\/])[^>]{0,4000}>/iy;

export function parseDocument(html: string, pageUrl: string): Document {
  const once = oneHtmlTag(html);
  let { document } = parseHTML(once) as unknown as { document: Document };
  if (!document.documentElement) ({ document } = parseHTML(`<!doctype html><html><head></head><body>${once}</body></html>`) as unknown as { document: Document });
  inertTemplates(document);
  const base = baseUrl(document, pageUrl);
  const hasBaseElement = Boolean(document.querySelector('base[href]'));
  for (const [tag, attr] of URL_ATTRS) {
    for (const el of document.querySelectorAll(`${tag}[${attr}]`)) {
      const value = el.getAttribute(attr)!;
      // Readability (in a browser) keeps in-page anchors as they are unless a <base> moves them.
      if (value.startsWith('#') && !hasBaseElement) continue;
      el.setAttribute(attr, absolute(value, base));
    }
  }
  for (const el of document.querySelectorAll('img, source')) {
    for (const attr of ['srcset', 'data-srcset']) {
      const value = el.getAttribute(attr);
      if (value) el.setAttribute(attr, absoluteSrcset(value, base));
    }
    for (const attr of LAZY_ATTRS) {
      const value = el.getAttribute(attr);
      if (value) el.setAttribute(attr, absolute(value, base));
    }
  }
  return document;
}

/** The markup with every <html> start tag after the first dropped; tags inside comments (old IE's conditional ones) are no tags. One pass. */
function oneHtmlTag(html: string): string {
  const parts: string[] = [];
  let seen = false;
  let from = 0;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      if (end === -1) break;
      i = end + 2;
      continue;
    }
    HTML_START.lastIndex = i;
    const tag = HTML_START.exec(html);
    if (!tag) continue;
    if (seen) { parts.push(html.slice(from, i)); from = i + tag[0].length; }
    seen = true;
  }
  return from === 0 ? html : parts.join('') + html.slice(from);
}

/** Template markup out of the tree, into template.content, as a browser's parser leaves it. */
function inertTemplates(document: Document): void {
  for (const template of [...document.querySelectorAll('template')] as HTMLTemplateElement[]) {
    if (!template.isConnected || template.hasAttribute('shadowrootmode') || template.hasAttribute('shadowroot')) continue;
    // linkedom fills content from the children on first read.
    void template.content;
    while (template.firstChild) template.firstChild.remove();
  }
}

function baseUrl(document: Document, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return href ? absolute(href, pageUrl) : pageUrl;
}

function absolute(value: string, base: string): string {
  const trimmed = value.trim();
  // javascript:, mailto:, data: … stay as written; Readability handles javascript: links itself.
  try {
    return new URL(trimmed, base).href;
  } catch {
    return value;
  }
}

function absoluteSrcset(srcset: string, base: string): string {
  return srcset.split(',').map((candidate) => {
    const [url, ...descriptor] = candidate.trim().split(/\s+/);
    return url ? [absolute(url, base), ...descriptor].join(' ') : '';
  }).filter(Boolean).join(', ');
}
