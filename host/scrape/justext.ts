// A second, independent reading of the whole page, as jusText reads it: the
// page cut into paragraph-level blocks (block-segment.ts), each block called
// good (the article's) or bad (boilerplate) first by itself, from its length,
// its link density and its share of the language's stopwords, then, for the
// short and the near-good ones, by the blocks around it. The parameters are
// jusText's published defaults; the algorithm follows its description:
//  - alone: link density above 0.2, a copyright sign: bad; under 70
//    characters: bad with a link, else short; stopwords ≥ 0.30 (jusText:
//    0.32): good when over 200 characters, else near-good; stopwords ≥ 0.28
//    (0.30): near-good; else bad;
//  - a short heading with a good block within 200 characters after it is
//    near-good;
//  - a short block takes its neighbours' class when both agree (short and
//    near-good ones skipped, the page's edges count as bad); between a good
//    and a bad one it is good when a near-good block is next to it on the bad
//    side, else bad;
//  - a near-good block is bad only between two bad ones;
//  - a heading that was not bad by itself and ended bad is good when a good
//    block follows within 200 characters.
import { segmentPage, type PageBlock } from './block-segment.js';

type Kind = 'good' | 'bad' | 'short' | 'near-good';

const LENGTH_LOW = 70;
const LENGTH_HIGH = 200;
// jusText publishes 0.30 and 0.32 for its own stopword lists; the `stopword` package's are shorter (English:
// 108 words), so prose shows fewer of them. Two points lower, chosen on the development halves.
const STOPWORDS_LOW = 0.28;
const STOPWORDS_HIGH = 0.3;
const MAX_LINK_DENSITY = 0.2;
const MAX_HEADING_DISTANCE = 200;

/** The page's blocks in reading order and jusText's final class of each. */
export interface JusTextReading { blocks: PageBlock[]; good: boolean[] }

export function readJusText(body: Element, stopwords: Set<string>): JusTextReading {
  const blocks = segmentPage(body, (w) => stopwords.has(w));
  return { blocks, good: classifyJusText(blocks).map((k) => k === 'good') };
}

function classifyJusText(blocks: PageBlock[]): Array<'good' | 'bad'> {
  const alone = blocks.map(judgeAlone);
  const kinds = [...alone];
  for (let i = 0; i < blocks.length; i++) if (blocks[i].heading && kinds[i] === 'short' && goodWithin(blocks, kinds, i)) kinds[i] = 'near-good';
  const shorts = new Map<number, Kind>();
  for (let i = 0; i < blocks.length; i++) {
    if (kinds[i] !== 'short') continue;
    const [prev, next] = [neighbour(kinds, i, -1, true), neighbour(kinds, i, 1, true)];
    if (prev === next) shorts.set(i, prev);
    else if (prev === 'bad' && neighbour(kinds, i, -1, false) === 'near-good') shorts.set(i, 'good');
    else if (next === 'bad' && neighbour(kinds, i, 1, false) === 'near-good') shorts.set(i, 'good');
    else shorts.set(i, 'bad');
  }
  for (const [i, k] of shorts) kinds[i] = k;
  // In place, as jusText does: a near-good block already decided counts for the next one.
  for (let i = 0; i < blocks.length; i++) {
    if (kinds[i] !== 'near-good') continue;
    kinds[i] = neighbour(kinds, i, -1, true) === 'bad' && neighbour(kinds, i, 1, true) === 'bad' ? 'bad' : 'good';
  }
  for (let i = 0; i < blocks.length; i++) if (blocks[i].heading && kinds[i] === 'bad' && alone[i] !== 'bad' && goodWithin(blocks, kinds, i)) kinds[i] = 'good';
  return kinds as Array<'good' | 'bad'>;
}

function judgeAlone(b: PageBlock): Kind {
  const length = b.text.length;
  if (b.linkChars / Math.max(1, b.chars) > MAX_LINK_DENSITY) return 'bad';
  if (b.text.includes('©')) return 'bad';
  if (length < LENGTH_LOW) return b.linkChars > 0 ? 'bad' : 'short';
  const density = b.functionWords / Math.max(1, b.words);
  if (density >= STOPWORDS_HIGH) return length > LENGTH_HIGH ? 'good' : 'near-good';
  return density >= STOPWORDS_LOW ? 'near-good' : 'bad';
}

/** The nearest good or bad block before (step -1) or after (step 1) block i, near-good too unless ignored; the edges are bad. */
function neighbour(kinds: Kind[], i: number, step: 1 | -1, ignoreNearGood: boolean): Kind {
  for (let j = i + step; j >= 0 && j < kinds.length; j += step) {
    if (kinds[j] === 'good' || kinds[j] === 'bad' || (kinds[j] === 'near-good' && !ignoreNearGood)) return kinds[j];
  }
  return 'bad';
}

function goodWithin(blocks: PageBlock[], kinds: Kind[], i: number): boolean {
  let distance = 0;
  for (let j = i + 1; j < blocks.length && distance <= MAX_HEADING_DISTANCE; j++) {
    if (kinds[j] === 'good') return true;
    distance += blocks[j].text.length;
  }
  return false;
}
