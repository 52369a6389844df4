// Taking blocks out of Readability's answer, for the whole-page readings that
// vote on it (block-vote.ts, justext-agree.ts): which of the answer's blocks a
// reading judged, how its edge runs are found, and what may be removed.
import type { PageBlock } from './block-segment.js';

const MEDIA = 'img, picture, video, audio, iframe, embed, object, svg, math, pre, table, figure';

/** Each text's judgements in page order: a text the page shows more than once is judged on every copy. */
export function byText<T>(blocks: PageBlock[], judged: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  blocks.forEach((b, i) => out.set(b.text, [...(out.get(b.text) ?? []), judged[i]]));
  return out;
}

/** The element the block was read from holds that block's text and nothing else. */
export function holdsAlone(b: PageBlock): boolean {
  return Boolean(b.owner) && (b.owner!.textContent ?? '').replace(/\s+/g, ' ').trim() === b.text;
}

/** The answer's leading and trailing runs of blocks that pass `test`. */
export function edgeRuns(blocks: PageBlock[], test: (b: PageBlock) => boolean): Set<PageBlock> {
  const runs = new Set<PageBlock>();
  for (const b of blocks) { if (!test(b)) break; runs.add(b); }
  for (const b of [...blocks].reverse()) { if (runs.has(b) || !test(b)) break; runs.add(b); }
  return runs;
}

/**
 * Removes from `root` the doomed blocks whose element holds that block alone, so no other text goes with
 * it, and no image, table or code; nothing when they would take more than `share` of the answer's words
 * (the reading and the answer then disagree about where the article is). Returns how many went.
 */
export function removeBlocks(root: Element, blocks: PageBlock[], doomed: Iterable<PageBlock>, share: number): number {
  const total = blocks.reduce((s, b) => s + b.words, 0);
  const removable = [...doomed].filter((b) => holdsAlone(b) && b.owner !== root && !b.owner!.querySelector(MEDIA));
  const words = removable.reduce((s, b) => s + b.words, 0);
  if (!removable.length || words > total * share) return 0;
  for (const b of removable) b.owner!.remove();
  return removable.length;
}
