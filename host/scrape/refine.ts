// What Readability leaves that is not the article, and a second opinion when
// what it found is too thin or mostly links. Readability keeps a page's
// navigation or link lists when they sit next to the text it scored (a
// recipe's short lines score low, the menu above them comes along), so:
//  - boilerplate removal: navigation, link-list blocks (related stories,
//    category menus), asides (Readability drops those it sees itself),
//    widgets named by their class or id (share, newsletter, sidebar, author
//    box, popup, …) and blocks a class hides go; figures, captions and
//    lists of text stay. Readability strips class attributes, so the names
//    are read before it runs (markBoilerplate) and left on as a mark;
//  - a second opinion: when the result is short or mostly links, or when it
//    dropped whole paragraphs of the page's own main container (<main>,
//    <article>, role=main, articleBody), that container, cleaned the same
//    way, is taken instead.
import { plainText, countWords, wordCover } from './text.js';

const BOILERPLATE = 'nav, aside, [role="navigation"], [role="complementary"], [aria-label="breadcrumb"], .breadcrumb, .breadcrumbs';
const WIDGET = /(^|[-_\s])(share|sharing|social|newsletter|subscribe|related|promo|sponsored|advert|ads|cookie|comments?-(?:form|link)s?|sidebar|rail|footer|more-?from|most-?popular|embed|alerts?|author|bio|flyout|popup|modal|dialog)([-_\s]|$)/i;
// Class names a stylesheet hides (a closed dialog, a collapsed panel): nothing a reader sees.
const HIDDEN = /(^|\s)(hidden|hide|display-none|d-none|is-hidden|invisible)(\s|$)/i;
// Readability strips class attributes from its answer, so the verdict on an element's class and id is
// written on the element, before Readability runs, as this attribute; it is cleared from the result.
export const HINT = 'data-webcap-boilerplate';
const CONTAINERS = ['[itemprop="articleBody"]', 'article', 'main', '[role="main"]'];
// Below this many words, or above this share of link text, Readability's answer gets a second opinion.
export const SHORT_WORDS = 80;
const LINK_HEAVY = 0.5;
// A widget (by its class or id) holds fewer words than this, or than this share of the answer.
const WIDGET_WORDS = 150;
const WIDGET_SHARE = 0.3;
// A block made of this share of link text (with at least MIN_LINKS links) is a link list.
const LINK_LIST = 0.8;
const MIN_LINKS = 3;

interface Refined { root: Element; how: string }

/** Share of the element's text that sits inside links. */
function linkDensity(el: Element): number {
  const text = (el.textContent ?? '').replace(/\s+/g, '').length;
  if (!text) return 0;
  let linked = 0;
  for (const a of el.querySelectorAll('a')) linked += (a.textContent ?? '').replace(/\s+/g, '').length;
  return linked / text;
}

/**
 * Removes navigation, link lists and widgets inside `root`; returns how many blocks went. With
 * `listsInText` kept, a link list with paragraphs of text both before and after it stays: menus
 * and related-story lists sit at the edges of an answer, a list of linked names inside the text
 * (a colophon's apps, a post's sources) is the text's own.
 */
function removeBoilerplate(root: Element, keepListsInText = false, proseWidgetsStay = false): number {
  let removed = 0;
  const drop = (el: Element) => { el.remove(); removed++; };
  for (const el of [...root.querySelectorAll(BOILERPLATE)]) if (root.contains(el)) drop(el);
  // A named widget goes unless it holds a good part of the answer (then the name is the page's layout, not a widget).
  const widgetLimit = Math.max(WIDGET_WORDS, countWords(root.textContent ?? '') * WIDGET_SHARE);
  for (const el of [...root.querySelectorAll(`[class], [id], [${HINT}]`)]) {
    if (!root.contains(el) || el.querySelector('figure, pre')) continue;
    if ((el.hasAttribute(HINT) || isBoilerplateName(el)) && countWords(el.textContent ?? '') < widgetLimit && !(proseWidgetsStay && readsAsProse(el))) drop(el);
  }
  const inText = keepListsInText ? betweenParagraphs(root) : () => false;
  for (const el of [...root.querySelectorAll('ul, ol, div, p, section, header, footer')]) {
    if (el === root || !root.contains(el) || el.querySelector('figure, img, pre, table')) continue;
    if (el.querySelectorAll('a').length >= MIN_LINKS && linkDensity(el) >= LINK_LIST && !inText(el)) drop(el);
  }
  return removed;
}

// A block is the article's prose when it holds this many paragraphs (lines of at least PARAGRAPH_WORDS words
// ending as sentences do) and they carry most of its words, with little link text: widgets are one-line
// pitches, link lists and short bios, not paragraphs of text.
const PROSE_PARAGRAPHS = 2;
const PROSE_LINKS = 0.2;

/**
 * Does the element read as paragraphs of prose? A widget's name (author, embed, related, promo) sometimes
 * sits on a wrapper of the article's own text; the text, not the name, then decides.
 */
function readsAsProse(el: Element): boolean {
  if (linkDensity(el) >= PROSE_LINKS) return false;
  const lines = plainText(el).split('\n').map((l) => l.trim()).filter(Boolean);
  const paragraphs = lines.filter((l) => SENTENCE_END.test(l) && countWords(l) >= PARAGRAPH_WORDS);
  const all = lines.reduce((sum, l) => sum + countWords(l), 0);
  const prose = paragraphs.reduce((sum, l) => sum + countWords(l), 0);
  return paragraphs.length >= PROSE_PARAGRAPHS && prose / Math.max(1, all) >= PROSE_SHARE;
}

function isBoilerplateName(el: Element): boolean {
  const cls = el.getAttribute('class') ?? '';
  return WIDGET.test(`${cls} ${el.getAttribute('id') ?? ''}`) || HIDDEN.test(cls);
}

/** Marks widgets and hidden blocks by their class or id, before Readability strips the classes. */
export function markBoilerplate(doc: Document): void {
  for (const el of doc.querySelectorAll('body [class], body [id]')) {
    if (!isBoilerplateName(el)) continue;
    // Readability replaces a wrapper that holds a single element by that element: the mark goes down with it.
    for (let e: Element | null = el; e; e = e.children.length === 1 ? e.children[0] : null) e.setAttribute(HINT, '');
  }
}

/** Takes the marks off again: they are not the page's. */
export function clearMarks(root: Element): void {
  root.removeAttribute(HINT);
  for (const el of root.querySelectorAll(`[${HINT}]`)) el.removeAttribute(HINT);
}

/** The page's own main containers, copied before Readability rewrites the document: the second opinion's candidates. */
export function mainContainers(doc: Document): Element[] {
  const found: Element[] = [];
  for (const selector of CONTAINERS) {
    const el = doc.querySelector(selector);
    if (el && !found.includes(el)) found.push(el);
  }
  return found.map((el) => el.cloneNode(true) as Element);
}

// Which of the cleaning and second-opinion rules run (RefineSteps carries them); by default the rules as they were first tuned.
export interface RefineChoice { clean: boolean; keepListsInText: boolean; proseWidgetsStay: boolean; secondOpinion: boolean; thinSecondOpinionAddsArticle: boolean; secondOpinionOneArticle: boolean }
const FIRST_RULES: RefineChoice = { clean: true, keepListsInText: false, proseWidgetsStay: false, secondOpinion: true, thinSecondOpinionAddsArticle: false, secondOpinionOneArticle: false };

/**
 * Readability's article, cleaned; or the page's own main container, cleaned the same way, when
 * Readability's answer is thin or link-heavy, or when it dropped whole parts of that container
 * (a newsletter's items, a recipe's steps): the container then holds all of Readability's words
 * and half as many again of its own.
 */
export function refineArticle(article: Element, candidates: () => Element[], steps = FIRST_RULES): Refined {
  const removed = steps.clean ? removeBoilerplate(article, steps.keepListsInText, steps.proseWidgetsStay) : 0;
  const text = plainText(article);
  const words = countWords(text);
  const how = removed ? `readability, ${removed} boilerplate block(s) removed` : 'readability';
  const thin = words < SHORT_WORDS || linkDensity(article) > LINK_HEAVY;
  for (const candidate of steps.secondOpinion ? candidates() : []) {
    for (const el of [...candidate.querySelectorAll('script, style, noscript, template, form, iframe')]) el.remove();
    removeBoilerplate(candidate, steps.keepListsInText, steps.proseWidgetsStay);
    const theirText = plainText(candidate);
    const theirs = countWords(theirText);
    if (linkDensity(candidate) > LINK_HEAVY) continue;
    if (steps.thinSecondOpinionAddsArticle && thin && !addsAnArticle(candidate, theirText, text)) continue;
    if (steps.secondOpinionOneArticle && severalArticles(candidate)) continue;
    const label = candidate.getAttribute('itemprop') === 'articleBody' ? 'articleBody' : candidate.getAttribute('role') === 'main' ? 'role=main' : candidate.nodeName.toLowerCase();
    if (thin && theirs > words * 1.2) return { root: candidate, how: `second opinion: ${label} (Readability kept ${words} words)` };
    if (!thin && theirs >= words * DROPPED_PARTS && covers(theirText, text) && droppedParagraphs(theirText, text)) return { root: candidate, how: `second opinion: ${label} (Readability kept ${words} of its ${theirs} words)` };
  }
  return { root: article, how };
}

/** A container holding several <article> elements is a list or a feed of stories, not one article. */
const severalArticles = (container: Element) => container.querySelectorAll('article').length > 1;

/**
 * When Readability's answer is thin, does the container add an article to it? It is one article,
 * it adds an article's worth of words (a thin answer next to a page's footer line is no reason to
 * swap), and what it adds is prose: most of the added words sit in lines that end as sentences do.
 */
function addsAnArticle(container: Element, theirText: string, kept: string): boolean {
  if (severalArticles(container)) return false;
  const added = addedLines(theirText, kept);
  const words = added.reduce((sum, l) => sum + countWords(l), 0);
  if (words < SHORT_WORDS) return false;
  const prose = added.filter((l) => SENTENCE_END.test(l) && countWords(l) >= SENTENCE_WORDS).reduce((sum, l) => sum + countWords(l), 0);
  return words > 0 && prose / words >= PROSE_SHARE;
}

// A line that ends as a sentence does (closing quotes and brackets allowed), and is at least this many words long.
const SENTENCE_END = /[.!?…:;]["'”’»)\]]*$/u;
const SENTENCE_WORDS = 6;
// This share of the added words in sentences: the added text is prose, not headlines, dates and links.
const PROSE_SHARE = 0.6;

/** The container's lines that Readability's answer lacks. */
function addedLines(container: string, kept: string): string[] {
  const keptLines = new Set(kept.split('\n').map((l) => l.trim()));
  return container.split('\n').map((l) => l.trim()).filter((l) => l && !keptLines.has(l));
}

/** A test for "does this element sit between two paragraphs of `root`'s text?", over `root` as it is now. */
function betweenParagraphs(root: Element): (el: Element) => boolean {
  const order = new Map<Element, number>();
  let i = 0;
  for (const el of root.querySelectorAll('*')) order.set(el, i++);
  const paragraphs = [...root.querySelectorAll('p, blockquote, li, dd, div')]
    .filter((el) => !el.querySelector('p, blockquote, li, dd, div') && countWords(el.textContent ?? '') >= PARAGRAPH_MIN_WORDS && linkDensity(el) < 0.3)
    .map((el) => order.get(el) ?? -1);
  return (el) => {
    const at = order.get(el) ?? -1;
    const last = at + el.querySelectorAll('*').length;
    return paragraphs.some((p) => p < at) && paragraphs.some((p) => p > last);
  };
}
// A block of text this many words long, mostly not links, is a paragraph.
const PARAGRAPH_MIN_WORDS = 8;

// A container this many times longer than Readability's answer, and holding it, means Readability dropped parts.
const DROPPED_PARTS = 1.5;

// What Readability dropped must read as paragraphs: lines this long on average. Related-story
// headlines, "next" teasers, captions and a video's timed transcript lines are shorter.
const PARAGRAPH_WORDS = 15;

/** Are the container's lines that Readability's answer lacks paragraphs of text (not headlines or teasers)? */
function droppedParagraphs(container: string, kept: string): boolean {
  const dropped = addedLines(container, kept);
  const words = dropped.reduce((sum, l) => sum + countWords(l), 0);
  return dropped.length > 0 && words / dropped.length >= PARAGRAPH_WORDS;
}

/** Does `outer` hold (nearly) every word of `inner`? */
function covers(outer: string, inner: string): boolean {
  return wordCover(outer)(inner) >= 0.95;
}
