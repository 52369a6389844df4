// What Readability leaves that is not the article, and a second opinion when
// what it found is too thin or mostly links. Readability keeps a page's
// navigation or link lists when they sit next to the text it scored (a
// recipe's short lines score low, the menu above them comes along), so:
//  - boilerplate removal: navigation, link-list blocks (related stories,
//    category menus) and share/newsletter widgets go; figures, captions and
//    lists of text stay;
//  - a second opinion: when the result is short or mostly links, the page's
//    own main container (<main>, <article>, role=main, articleBody) cleaned
//    the same way is taken instead, if it holds more text.
import { plainText, countWords } from './text.js';

const BOILERPLATE = 'nav, [role="navigation"], [role="complementary"], [aria-label="breadcrumb"], .breadcrumb, .breadcrumbs';
const WIDGET = /(^|[-_\s])(share|sharing|social|newsletter|subscribe|related|promo|sponsored|advert|ads|cookie|comments?-(?:form|link)s?)([-_\s]|$)/i;
const CONTAINERS = ['[itemprop="articleBody"]', 'article', 'main', '[role="main"]'];
// Below this many words, or above this share of link text, Readability's answer gets a second opinion.
export const SHORT_WORDS = 80;
export const LINK_HEAVY = 0.5;
// A block made of this share of link text (with at least MIN_LINKS links) is a link list.
const LINK_LIST = 0.8;
const MIN_LINKS = 3;

export interface Refined { root: Element; how: string }

/** Share of the element's text that sits inside links. */
export function linkDensity(el: Element): number {
  const text = (el.textContent ?? '').replace(/\s+/g, '').length;
  if (!text) return 0;
  let linked = 0;
  for (const a of el.querySelectorAll('a')) linked += (a.textContent ?? '').replace(/\s+/g, '').length;
  return linked / text;
}

/** Removes navigation, link lists and widgets inside `root`; returns how many blocks went. */
export function removeBoilerplate(root: Element): number {
  let removed = 0;
  const drop = (el: Element) => { el.remove(); removed++; };
  for (const el of [...root.querySelectorAll(BOILERPLATE)]) if (root.contains(el)) drop(el);
  for (const el of [...root.querySelectorAll('[class], [id]')]) {
    if (!root.contains(el) || el.querySelector('figure, img, pre, table')) continue;
    if (WIDGET.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`) && countWords(el.textContent ?? '') < 150) drop(el);
  }
  for (const el of [...root.querySelectorAll('ul, ol, div, p, section, header, footer')]) {
    if (el === root || !root.contains(el) || el.querySelector('figure, img, pre, table')) continue;
    if (el.querySelectorAll('a').length >= MIN_LINKS && linkDensity(el) >= LINK_LIST) drop(el);
  }
  return removed;
}

/** Readability's article, cleaned; or, when that is thin or link-heavy, the page's own main container. */
export function refineArticle(article: Element, pristine: () => Document): Refined {
  const removed = removeBoilerplate(article);
  const words = countWords(plainText(article));
  const how = removed ? `readability, ${removed} boilerplate block(s) removed` : 'readability';
  if (words >= SHORT_WORDS && linkDensity(article) <= LINK_HEAVY) return { root: article, how };
  const doc = pristine();
  for (const selector of CONTAINERS) {
    const candidate = doc.querySelector(selector);
    if (!candidate) continue;
    for (const el of [...candidate.querySelectorAll('script, style, noscript, template, form, iframe')]) el.remove();
    removeBoilerplate(candidate);
    const theirs = countWords(plainText(candidate));
    if (theirs > words * 1.2 && linkDensity(candidate) <= LINK_HEAVY) return { root: candidate, how: `second opinion: ${selector} (Readability kept ${words} words)` };
  }
  return { root: article, how };
}
