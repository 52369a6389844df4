// Two readings of one page, voting: Readability's article, and the whole-page
// block scorer (block-segment.ts, block-classify.ts). The scorer sees what
// Readability cannot: a block's neighbours across the whole page. What goes
// from Readability's answer is what the scorer calls boilerplate with
// confidence:
//  - at the answer's edges (its leading and trailing runs): blocks bad on
//    their own evidence (mostly links, a link in a short line, a copyright
//    line, the page's chrome); short headings with no text under them and
//    captions among bad neighbours (the label of a link box, a photo
//    credit); a short line that labels the links right after it;
//  - inside it: short blocks that are mostly links (a "read more" teaser,
//    an embedded post's link line), a copyright line, the page's chrome.
// Never a paragraph the scorer doubts only for its wording or its neighbours.
// When the scorer would take away a large part of the answer, the two
// readings disagree and Readability's stands.
import { segmentPage, type PageBlock } from './block-segment.js';
import { classifyBlocks, type Verdict } from './block-classify.js';
import { HINT } from './refine.js';
import { byText as judgedByText, edgeRuns, removeBlocks } from './block-drop.js';

// The scorer may take at most this share of the answer's words; more, and the readings disagree.
const AGREEMENT = 0.3;
// Inside the answer only blocks shorter than this (characters) go: longer ones are the article's, links or not.
const SHORT_INSIDE = 200;
const OWN_EVIDENCE = new Set(['mostly links', 'short with a link', 'copyright', 'page chrome']);
const INSIDE_EVIDENCE = new Set(['mostly links', 'copyright', 'page chrome']);

// A linked line that reads as a sentence of several words (a list item, a line of dialogue) is the article's, links or not.
const SENTENCE = /[.!?…"“”»)]$/;
const SENTENCE_WORDS = 4;
const reads = (b: PageBlock) => SENTENCE.test(b.text) && b.words >= SENTENCE_WORDS;

/** The whole page's blocks in reading order, their verdicts, and the verdicts by a block's text. */
export interface PageVerdicts {
  blocks: PageBlock[];
  verdicts: Verdict[];
  byText: Map<string, Verdict[]>;
  /** Each block sits in an element marked as a widget by its class or id, or hidden. */
  marked: boolean[];
}

/** Every block of the page (read before Readability rewrites it), with the scorer's verdicts. */
export function scorePage(body: Element): PageVerdicts {
  const blocks = segmentPage(body);
  const verdicts = classifyBlocks(blocks);
  const byText = judgedByText(blocks, verdicts);
  const marked = blocks.map((b) => Boolean(b.owner?.closest(`[${HINT}], [hidden], [aria-hidden="true"]`)));
  return { blocks, verdicts, byText, marked };
}

/** Removes from `root` (Readability's answer) the blocks the page scorer calls boilerplate with confidence; returns how many went. */
export function dropBoilerplateBlocks(root: Element, page: PageVerdicts): number {
  const blocks = segmentPage(root);
  // A text the page shows more than once counts as boilerplate only when every copy is.
  const every = (b: PageBlock, test: (v: Verdict) => boolean) => { const vs = page.byText.get(b.text); return Boolean(vs?.length && vs.every(test)); };
  const atEdge = (b: PageBlock) => every(b, (v) => v.final === 'bad' && (v.initial === 'bad' ? OWN_EVIDENCE.has(v.reason) : v.initial === 'short' && ((b.heading && !v.headsText) || b.caption || v.labelsLinks)));
  const inside = (b: PageBlock) => b.chars < SHORT_INSIDE && !reads(b) && every(b, (v) => v.initial === 'bad' && INSIDE_EVIDENCE.has(v.reason));
  const doomed = edgeRuns(blocks, atEdge);
  for (const b of blocks) if (inside(b)) doomed.add(b);
  return removeBlocks(root, blocks, doomed, AGREEMENT);
}
