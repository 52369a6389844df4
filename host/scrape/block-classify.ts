// Each block of the page called good (the article's) or bad (boilerplate),
// as jusText calls them: first by the block alone, then by its neighbours.
//  - Alone: mostly links, or a copyright line, or a short part of the page's
//    chrome (navigation, aside, footer, form) is bad; a block too short to
//    judge is "short"; otherwise prose (long, and full of function words) is
//    good, a medium block with enough function words "near-good", the rest bad.
//    On a page in a language without a function-word list, length decides.
//  - By context: a short heading with good text right after it is kept; a
//    short block between two good ones is good, between two bad ones bad,
//    beside a near-good one good, else bad; a near-good block is good unless
//    both its neighbours are bad. The page's edges count as bad neighbours.
import type { PageBlock } from './block-segment.js';

export type Kind = 'good' | 'bad' | 'short' | 'near-good';
/** initial: the kind alone, for `reason`; final: after the neighbours had their say. */
export interface Verdict { initial: Kind; reason: string; final: 'good' | 'bad'; labelsLinks: boolean; headsText: boolean }

// Below this many characters a block is too short to judge alone; above LONG it is an article's paragraph.
export const SHORT_CHARS = 70;
const LONG_CHARS = 200;
// Share of link text above which a block is a link list or a menu entry.
export const LINKS = 0.2;
// A block this much inside links is a link list, a menu entry or a teaser, wherever it stands.
const MOSTLY_LINKS = 0.5;
// Shares of function words: prose has at least FUNCTION_HIGH, near-good at least FUNCTION_LOW.
const FUNCTION_HIGH = 0.2;
const FUNCTION_LOW = 0.15;
// Below this share over the page's long blocks, the page's language has no list here: length alone decides.
const FUNCTION_KNOWN = 0.08;
// How a sentence ends (a label does not).
const SENTENCE_END = /[.!?…"“”»)]$/;
// A heading is kept when good text starts within this many characters after it.
const HEADING_REACH = 200;

export function classifyBlocks(blocks: PageBlock[]): Verdict[] {
  const long = blocks.filter((b) => b.chars >= LONG_CHARS);
  const share = long.reduce((s, b) => s + b.functionWords, 0) / Math.max(1, long.reduce((s, b) => s + b.words, 0));
  const known = long.length > 0 && share >= FUNCTION_KNOWN;
  const alone = blocks.map((b) => judgeAlone(b, known));
  const kinds: Kind[] = alone.map((a) => a.kind);
  // A short heading that good text follows is near-good: it heads the article's part.
  const headsText = blocks.map((b, i) => b.heading && goodFollows(blocks, kinds, i));
  for (let i = 0; i < blocks.length; i++) if (headsText[i] && (kinds[i] === 'short' || kinds[i] === 'bad' && alone[i].why === 'few function words')) kinds[i] = 'near-good';
  const smoothed = [...kinds];
  for (let i = 0; i < blocks.length; i++) {
    if (kinds[i] !== 'short') continue;
    const [prev, next] = [neighbour(kinds, i, -1, true), neighbour(kinds, i, 1, true)];
    if (prev === next) smoothed[i] = prev;
    else if ((prev === 'bad' && neighbour(kinds, i, -1, false) === 'near-good') || (next === 'bad' && neighbour(kinds, i, 1, false) === 'near-good')) smoothed[i] = 'good';
    else smoothed[i] = 'bad';
  }
  const final = smoothed.map((k, i) => {
    if (k !== 'near-good') return k;
    return neighbour(smoothed, i, -1, true) === 'bad' && neighbour(smoothed, i, 1, true) === 'bad' ? 'bad' : 'good';
  }) as Array<'good' | 'bad'>;
  // A short line right before a block of links, and not a sentence, is that box's label ("Read more", "Also on this site:").
  const linkBlock = (j: number) => j < blocks.length && alone[j].kind === 'bad' && (alone[j].why === 'mostly links' || alone[j].why === 'links' || alone[j].why === 'short with a link');
  return blocks.map((_, i) => ({ initial: alone[i].kind, reason: alone[i].why, final: final[i], labelsLinks: alone[i].kind === 'short' && !SENTENCE_END.test(blocks[i].text) && linkBlock(i + 1), headsText: headsText[i] }));
}

function judgeAlone(b: PageBlock, functionWordsKnown: boolean): { kind: Kind; why: string } {
  const linked = b.linkChars / Math.max(1, b.chars);
  if (linked >= MOSTLY_LINKS) return { kind: 'bad', why: 'mostly links' };
  // A paragraph of prose may link a few of its words; a shorter block with that many links is a teaser or a menu.
  if (linked > LINKS && b.chars < LONG_CHARS) return { kind: 'bad', why: 'links' };
  if (b.text.includes('©')) return { kind: 'bad', why: 'copyright' };
  if (b.chrome && b.chars < LONG_CHARS) return { kind: 'bad', why: 'page chrome' };
  if (b.chars < SHORT_CHARS) return b.linkChars > 0 ? { kind: 'bad', why: 'short with a link' } : { kind: 'short', why: 'short' };
  const share = b.functionWords / Math.max(1, b.words);
  if (!functionWordsKnown || share >= FUNCTION_HIGH) return b.chars > LONG_CHARS ? { kind: 'good', why: 'prose' } : { kind: 'near-good', why: 'medium' };
  if (share >= FUNCTION_LOW) return { kind: 'near-good', why: 'medium' };
  return { kind: 'bad', why: 'few function words' };
}

/** The nearest non-short kind before (step -1) or after (step 1) block i; near-good counts only when not ignored; the edges are bad. */
function neighbour(kinds: Kind[], i: number, step: 1 | -1, ignoreNearGood: boolean): Kind {
  for (let j = i + step; j >= 0 && j < kinds.length; j += step) {
    if (kinds[j] === 'short' || (ignoreNearGood && kinds[j] === 'near-good')) continue;
    return kinds[j];
  }
  return 'bad';
}

function goodFollows(blocks: PageBlock[], kinds: Kind[], i: number): boolean {
  let distance = 0;
  for (let j = i + 1; j < blocks.length && distance <= HEADING_REACH; j++) {
    if (kinds[j] === 'good' || kinds[j] === 'near-good') return true;
    distance += blocks[j].chars;
  }
  return false;
}
