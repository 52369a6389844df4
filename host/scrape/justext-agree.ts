// Main's answer and the jusText reading (justext.ts), combined by agreement.
// jusText reads the whole page and is often wrong about a single paragraph
// of prose (a long one dense with names, or with a few links, reads as
// boilerplate to it); where it is strong is the run of chrome around an
// article. So what goes is the answer's leading and trailing runs of blocks
// that jusText calls boilerplate (every copy of the text on the page), up to
// the first block it calls the article's; with `inside`, every such block of
// the answer. A block the page's own statement of its article (JSON-LD
// articleBody) holds stays, and so does a block jusText never saw as such (the
// answer cut the page differently). When jusText would take a large share of
// the answer, the two readings disagree about where the article is, and the
// answer stands whole.
import { segmentPage, type PageBlock } from './block-segment.js';
import type { JusTextReading } from './justext.js';
import { byText, edgeRuns, removeBlocks } from './block-drop.js';
import { wordCover } from './text.js';

// jusText may take at most this share of the answer's words.
const AGREEMENT = 0.3;
// articleBody holds a block when it holds this share of its words.
const IN_BODY = 0.8;

/** Removes from `root` (the answer) the blocks jusText calls boilerplate and articleBody does not hold; returns how many went. */
export function dropJusTextBad(root: Element, page: JusTextReading, articleBody: string | undefined, inside: boolean): number {
  const verdicts = byText(page.blocks, page.good);
  const blocks = segmentPage(root);
  const bad = (b: PageBlock) => { const vs = verdicts.get(b.text); return Boolean(vs?.length && vs.every((good) => !good)); };
  const held = articleBody ? wordCover(articleBody) : () => 0;
  const inBody = (text: string) => held(text) >= IN_BODY;
  const goes = (b: PageBlock) => bad(b) && !inBody(b.text);
  const doomed = inside ? new Set(blocks.filter(goes)) : edgeRuns(blocks, goes);
  return removeBlocks(root, blocks, doomed, AGREEMENT);
}
