// The snapshot bench's coverage counter (bench/snapshot-label.ts): a labelled
// element counts only when its own ref is printed right beside its name —
// what an agent can act on — in every tool's line format and in webcap's ref
// lists; a name with no ref beside it (a count, running text) does not count.
import { describe, expect, it } from 'vitest';
import { addressedLabels } from '../../../bench/snapshot-label.js';

describe('addressedLabels', () => {
  it('counts a name beside its ref, in element lines and in ref lists', () => {
    const answer = [
      '- link "qz1zq" [ref=e12] [cursor=pointer]:',
      '- links: "qz2zq" [ref=e3], "qz3zq" [ref=e4]',
      '- checkbox "qz4zq" [checked] [ref=e6]',
      '- links: e10 qz5zq · e11,e14 qz7zq',
      '- elements: e20 textbox [checked] qz6zq: typed · e21 button qz8zq',
      '  - clickable "qz9zq" [ref=wa-3]',
    ].join('\n');
    expect([...addressedLabels(answer)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('does not count a name without its own ref beside it', () => {
    const answer = [
      '- text: qz1zq and qz2zq',
      '- contentinfo (2 links; folded: {"ref":"e9"} opens it) qz3zq',
      '- h2 "qz4zq"',
      '- link "qz5zq":',
      '- links: e10 · qz6zq',
    ].join('\n');
    expect(addressedLabels(answer).size).toBe(0);
  });
});
