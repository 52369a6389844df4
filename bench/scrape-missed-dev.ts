// Tuning aid: on development-half trafilatura pages only, each "with" snippet
// the pipeline misses and each "without" snippet it keeps, with the block
// scorer's verdict on the page block that holds it.
// `node dist/bench/scrape-missed-dev.js [variant] [file-filter]`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { decodeBody } from '../host/scrape/charset.js';
import { scrapePage } from '../host/scrape/pipeline.js';
import { parseDocument } from '../host/scrape/dom.js';
import { segmentPage } from '../host/scrape/block-segment.js';
import { classifyBlocks } from '../host/scrape/block-classify.js';
import { halfOf } from './corpus-split.js';
import { trafilaturaPage, type Entry } from './trafilatura-snippets.js';
import { stepsOf } from './scrape-steps.js';

const steps = stepsOf(process.argv[2] ?? 'main');
const filter = process.argv[3] ? new RegExp(process.argv[3]) : undefined;
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const entries = JSON.parse(readFileSync(join(projectRoot(), 'bench', 'corpus', 'trafilatura', 'snippets.json'), 'utf8')) as Record<string, Entry>;
for (const [file, e] of Object.entries(entries)) {
  if (halfOf(`trafilatura/${file}`) !== 'development' || (filter && !filter.test(file))) continue;
  const html = decodeBody(trafilaturaPage(file), 'text/html');
  let text = '';
  try { text = norm(scrapePage({ url: e.url, status: 200, headers: {}, html, rendered: false }, { format: 'text', mainContent: true, steps }).content_text); } catch { /* counted as empty */ }
  const blocks = segmentPage(parseDocument(html, e.url).body);
  const verdicts = classifyBlocks(blocks);
  const where = (s: string) => {
    const i = blocks.findIndex((b) => b.text.includes(norm(s)) || norm(s).includes(b.text) && b.text.length > 30);
    if (i === -1) return 'no block';
    const v = verdicts[i];
    return `block ${i}/${blocks.length} ${v.initial}(${v.reason})→${v.final} chars ${blocks[i].chars} ${blocks[i].owner?.nodeName}`;
  };
  const missed = e.with.filter((w) => !text.includes(norm(w)));
  const kept = e.without.filter((w) => text.includes(norm(w)));
  if (!missed.length && !kept.length) continue;
  process.stdout.write(`${file} (words ${text.split(' ').length})\n`);
  for (const w of missed) process.stdout.write(`  MISSED ${JSON.stringify(w.slice(0, 70))} ${where(w)}\n`);
  for (const w of kept) process.stdout.write(`  KEPT   ${JSON.stringify(w.slice(0, 70))} ${where(w)}\n`);
}
