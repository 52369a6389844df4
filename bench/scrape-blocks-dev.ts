// Tuning aid for the block scorer: on development-half pages only, the
// function-word share and length of blocks that are in the hand-checked text
// against those that are not. `node dist/bench/scrape-blocks-dev.js`.
import { parseDocument } from '../host/scrape/dom.js';
import { segmentPage } from '../host/scrape/block-segment.js';
import { halfOf } from './corpus-split.js';
import { loadCorpus } from './quality.js';

const buckets = new Map<string, number[]>();
for (const p of loadCorpus()) {
  if (p.synthetic || halfOf(p.name) !== 'development') continue;
  const truth = p.truth.replace(/\s+/g, ' ');
  const doc = parseDocument(p.html, p.url);
  for (const b of segmentPage(doc.body)) {
    const inTruth = truth.includes(b.text);
    const size = b.chars < 70 ? 'short' : b.chars < 200 ? 'medium' : 'long';
    const density = b.words ? b.functionWords / b.words : 0;
    const k = `${inTruth ? 'content' : 'other  '} ${size}`;
    const xs = buckets.get(k) ?? [];
    xs.push(b.linkChars / Math.max(1, b.chars) > 0.2 ? -1 : density);
    buckets.set(k, xs);
  }
}
for (const [k, xs] of [...buckets].sort()) {
  const d = xs.filter((x) => x >= 0).sort((a, b) => a - b);
  const q = (f: number) => (d[Math.floor(f * (d.length - 1))] ?? 0).toFixed(2);
  process.stdout.write(`${k} n=${xs.length} link-heavy=${xs.length - d.length} density q10 ${q(0.1)} q25 ${q(0.25)} q50 ${q(0.5)} q75 ${q(0.75)} q90 ${q(0.9)}\n`);
}
