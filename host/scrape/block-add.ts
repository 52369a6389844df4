// Adding back what both readings call the article's. Readability keeps one
// container; the page sometimes splits its article over two (a lead
// paragraph above the body's container, a second body container after a
// photo or an advert), and a class name can make it drop a paragraph inside
// its container. The whole-page block scorer sees those blocks as prose
// among prose. A block goes back into the answer when:
//  - the scorer is sure of it: prose on its own evidence (long, full of
//    function words, few links), still good after its neighbours had their
//    say, not a heading or caption, not in the page's chrome, not in an
//    element named as a widget or hidden; and
//  - it sits where the answer is: between two of the answer's blocks, or in
//    an unbroken run of such blocks right before or after the answer (short
//    lines may sit between; anything the scorer doubts ends the run).
// When that would add more words than the answer holds, the two readings
// disagree about where the article is and the answer stands.
import { segmentPage, type PageBlock } from './block-segment.js';
import { LINKS, SHORT_CHARS } from './block-classify.js';
import type { PageVerdicts } from './block-vote.js';
import { holdsAlone } from './block-drop.js';

// The added words may be at most this share of the answer's.
const AGREEMENT = 1;

/** Adds to `root` (the answer) the page's blocks both readings call the article's; returns how many went in. */
export function addAgreedBlocks(root: Element, page: PageVerdicts): number {
  const answer = segmentPage(root);
  if (!answer.length) return 0;
  const ownerOf = new Map<string, Element>();
  for (const b of answer) if (b.owner && !ownerOf.has(b.text)) ownerOf.set(b.text, b.owner);
  const { blocks, verdicts } = page;
  // Readability re-cuts blocks (a div of text becomes a paragraph): a page block is in the answer when its text is.
  const answerText = answer.map((b) => b.text).join(' ');
  // A short line (a "Share" button) is found anywhere: only a block of some length marks where the answer is.
  const inAnswer = blocks.map((b) => ownerOf.has(b.text) || (b.chars >= SHORT_CHARS && answerText.includes(b.text)));
  const ownerFor = (text: string) => ownerOf.get(text) ?? answer.find((b) => b.owner && (b.text.includes(text) || text.includes(b.text)))?.owner ?? root;
  const first = inAnswer.indexOf(true);
  const last = inAnswer.lastIndexOf(true);
  if (first === -1) return 0;
  const sure = (i: number) => {
    const [b, v] = [blocks[i], verdicts[i]];
    return v.initial === 'good' && v.final === 'good' && !page.marked[i] && !b.chrome && !b.caption && !b.heading && b.linkChars / Math.max(1, b.chars) < LINKS;
  };
  const passable = (i: number) => verdicts[i].initial === 'short' && !blocks[i].chrome;
  const chosen: number[] = [];
  for (let i = first + 1; i < last; i++) if (!inAnswer[i] && sure(i)) chosen.push(i);
  for (let i = first - 1; i >= 0 && (sure(i) || passable(i)); i--) if (sure(i)) chosen.push(i);
  for (let i = last + 1; i < blocks.length && (sure(i) || passable(i)); i++) if (sure(i)) chosen.push(i);
  const answerWords = answer.reduce((s, b) => s + b.words, 0);
  const added = chosen.reduce((s, i) => s + blocks[i].words, 0);
  if (!chosen.length || added > answerWords * AGREEMENT) return 0;
  chosen.sort((a, b) => a - b);
  const doc = root.ownerDocument;
  // Each goes right after the nearest answer block before it in the page (the first ones before the answer's first block).
  const lastPut = new Map<number, Element>();
  for (const i of chosen) {
    const el = copyOf(blocks[i], doc);
    let anchor = i - 1;
    while (anchor >= 0 && !inAnswer[anchor]) anchor--;
    const at = anchor === -1 ? first : anchor;
    const owner = ownerFor(blocks[at].text);
    const prev = lastPut.get(at);
    if (prev) prev.after(el);
    else if (anchor === -1) (owner === root ? root.prepend(el) : owner.before(el));
    else (owner === root ? root.append(el) : owner.after(el));
    lastPut.set(at, el);
  }
  return chosen.length;
}

/** The block as the page has it when its element holds it alone (links and emphasis kept), else a paragraph of its text. */
function copyOf(b: PageBlock, doc: Document): Element {
  if (holdsAlone(b)) return b.owner!.cloneNode(true) as Element;
  const p = doc.createElement('p');
  p.textContent = b.text;
  return p;
}
