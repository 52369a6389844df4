// A last pass over the article the pipeline chose, block by block, as block
// scorers do (jusText, trafilatura): each leaf block is weighed by its kind,
// its length and its place. What goes:
//  - headings left with nothing under them at the end (a "Related" title
//    whose list went, a teaser box's label).
// And the page's own statement of its text (JSON-LD articleBody), when there
// is one and it agrees with the answer, is a second reading: blocks at the
// edges that share nothing with it go.
import { kept } from './better-reading.js';
import { countWords } from './text.js';

const LEAF = 'p, h1, h2, h3, h4, h5, h6, li, dt, dd, figcaption, blockquote, pre, td, th, div, section, header, footer, figure, ul, ol, dl, table, article, aside';
const HEADING = /^H[1-6]$/;
// A heading this short (words) is a label.
const SHORT_WORDS = 10;
// articleBody is taken as a second reading only when it is an article's worth of words.
const BODY_WORDS = 80;
// The answer holds this share of articleBody's words: the two readings agree.
const AGREES = 0.9;

interface Block { el: Element; text: string; words: number; linkShare: number; heading: number }

function leafBlocks(root: Element): Block[] {
  const out: Block[] = [];
  for (const el of root.querySelectorAll(LEAF)) {
    if (el.querySelector(LEAF)) continue;
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    let linked = 0;
    for (const a of el.querySelectorAll('a')) linked += (a.textContent ?? '').replace(/\s+/g, '').length;
    const chars = text.replace(/\s+/g, '').length;
    out.push({ el, text, words: countWords(text), linkShare: chars ? linked / chars : 0, heading: HEADING.test(el.nodeName.toUpperCase()) ? Number(el.nodeName[1]) : 0 });
  }
  return out;
}

/** Removes trailing empty headings and, by articleBody, foreign edge blocks; returns how many blocks went. */
export function sharpen(root: Element, articleBody?: string): number {
  let removed = 0;
  removed += dropEmptyHeadings(root);
  if (articleBody && countWords(articleBody) >= BODY_WORDS) removed += trimByBody(root, articleBody);
  return removed;
}

function dropEmptyHeadings(root: Element): number {
  let removed = 0;
  // From the end: a heading with nothing after it heads no content (the label of a box whose links went).
  const blocks = leafBlocks(root);
  for (let i = blocks.length - 1; i >= 0 && blocks[i].heading && blocks[i].words < SHORT_WORDS * 2; i--) { blocks[i].el.remove(); removed++; }
  return removed;
}

/** When the answer holds (nearly) all of articleBody, its leading and trailing blocks that share no words with it go. */
function trimByBody(root: Element, articleBody: string): number {
  const blocks = leafBlocks(root);
  const all = blocks.map((b) => b.text).join('\n');
  if (kept(articleBody, all) < AGREES) return 0;
  let removed = 0;
  const foreign = (b: Block) => !b.heading && kept(b.text, articleBody) < 0.5;
  const gone = new Set<Block>();
  for (const b of blocks) { if (!foreign(b)) break; gone.add(b); }
  for (const b of [...blocks].reverse()) { if (gone.has(b) || !foreign(b)) break; gone.add(b); }
  for (const b of gone) { b.el.remove(); removed++; }
  return removed;
}
