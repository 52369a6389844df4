// Datelines and bylines at the head of the answer. Readability keeps the
// short lines a page prints between its title and its first paragraph
// ("Published August 14, 2010", "By Jane Doe posted Aug 18th 2010 7:30PM",
// "Mis à jour le 29/10/2012 à 14h03"): the page's date and author, which the
// result already carries as fields, not the article's text. Only lines before
// the first paragraph of prose go, only short ones, and only when they read
// as a date (a year, a numeric date or a clock time with few words around
// it) or start by naming an author; a line that ends a sentence stays.
import { segmentPage, type PageBlock } from './block-segment.js';

// A dateline is short: at most this many words and characters.
const MAX_WORDS = 12;
const MAX_CHARS = 100;
// The first block this long (characters) is the article's first paragraph: nothing at or after it goes.
const PARAGRAPH_CHARS = 100;
const YEAR = /(?:^|[^\p{L}\p{N}])(?:19|20)\d{2}(?![\p{L}\p{N}])/u;
const NUMERIC_DATE = /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/;
const CLOCK = /\b\d{1,2}[:h]\d{2}\b/;
// "By", "Von", "Par", "Por", "Di", "Door", "Av": the word a byline starts with, in the languages the scorer knows.
const BYLINE = /^(?:by|von|par|por|di|door|av)\s+\p{Lu}/iu;
const SENTENCE_END = /[.!?…]["”»)]?$/;
const MEDIA = 'img, picture, video, audio, iframe, embed, object, svg, math, pre, table, figure';

/** A short line reading as the page's date or byline. */
export function isDateline(text: string, words: number): boolean {
  if (words > MAX_WORDS || text.length > MAX_CHARS) return false;
  const dated = YEAR.test(text) || NUMERIC_DATE.test(text) || CLOCK.test(text);
  if (SENTENCE_END.test(text) && !CLOCK.test(text)) return false;
  return dated || (BYLINE.test(text) && words <= 6);
}

/** Removes datelines and bylines before the answer's first paragraph; returns how many went. */
export function dropDatelines(root: Element): number {
  const blocks = segmentPage(root);
  const doomed: PageBlock[] = [];
  for (const b of blocks) {
    if (b.chars >= PARAGRAPH_CHARS) break;
    if (!b.heading && isDateline(b.text, b.words)) doomed.push(b);
  }
  // The element removed must hold this line alone, so no other text goes with it, and no image, table or code.
  const removable = doomed.filter((b) => b.owner && b.owner !== root && !b.owner.querySelector(MEDIA) && (b.owner.textContent ?? '').replace(/\s+/g, ' ').trim() === b.text);
  for (const b of removable) b.owner!.remove();
  return removable.length;
}
