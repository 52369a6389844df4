// Tuning aid: web.scrape's pipeline in-process (no fetch) on every corpus set.
// Development-half pages are shown one by one (they are the only ones rules
// may be tuned on); held-out pages only as each set's mean, so they stay a
// measure. `node dist/bench/scrape-dev.js [page-name-filter]`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { decodeBody } from '../host/scrape/charset.js';
import { halfOf } from './corpus-split.js';
import { baselineText, loadCorpus, pipelineText, tokenScore, type Score } from './quality.js';
import { inProcess, trafilaturaPage, type Entry } from './trafilatura-snippets.js';
import { parseDocument } from '../host/scrape/dom.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';

const filter = process.argv[2] ? new RegExp(process.argv[2]) : undefined;
const matches = (name: string) => !filter || filter.test(name);
const f = (n: number) => n.toFixed(3);
const sums = new Map<string, { ours: Score[]; base: Score[] }>();
const add = (k: string, ours: Score, base: Score) => {
  const s = sums.get(k) ?? { ours: [], base: [] };
  s.ours.push(ours); s.base.push(base); sums.set(k, s);
};
for (const p of loadCorpus()) {
  if (p.synthetic || !matches(p.name)) continue;
  const half = halfOf(p.name);
  const ours = tokenScore(pipelineText(p), p.truth);
  const base = tokenScore(baselineText(p), p.truth);
  add(`${p.name.split('/')[0]} ${half}`, ours, base);
  if (half === 'development' && matches(p.name)) {
    process.stdout.write(`${p.name.padEnd(45)} F1 ${f(ours.f1)} P ${f(ours.precision)} R ${f(ours.recall)}   base F1 ${f(base.f1)} P ${f(base.precision)}\n`);
  }
}
const mean = (xs: Score[], k: keyof Score) => xs.reduce((s, x) => s + x[k], 0) / Math.max(1, xs.length);
for (const [k, s] of [...sums].sort()) {
  process.stdout.write(`== ${k.padEnd(26)} n=${s.ours.length} ours F1 ${f(mean(s.ours, 'f1'))} P ${f(mean(s.ours, 'precision'))} R ${f(mean(s.ours, 'recall'))} | base F1 ${f(mean(s.base, 'f1'))} P ${f(mean(s.base, 'precision'))}\n`);
}

// trafilatura snippets
const entries = JSON.parse(readFileSync(join(projectRoot(), 'bench', 'corpus', 'trafilatura', 'snippets.json'), 'utf8')) as Record<string, Entry>;
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const tally: Record<string, number[]> = {};
for (const [file, e] of Object.entries(entries)) {
  const half = halfOf(`trafilatura/${file}`);
  if (!matches(file)) continue;
  const bytes = trafilaturaPage(file);
  let text = '';
  try { text = norm(await inProcess(file, e, bytes)); } catch (err) { text = ''; if (half === 'development') process.stdout.write(`FAIL ${file}: ${(err as Error).message}\n`); }
  const article = readArticle(parseDocument(decodeBody(bytes, 'text/html'), e.url));
  const btext = norm(article ? plainText(article.content) : '');
  const c = (t: string) => [e.with.filter((w) => t.includes(norm(w))).length, e.without.filter((w) => t.includes(norm(w))).length, e.with.length, e.without.length];
  const [tp, fp, nw, nwo] = c(text);
  const [btp, bfp] = c(btext);
  const t = (tally[half] ??= [0, 0, 0, 0, 0, 0]);
  t[0] += tp; t[1] += fp; t[2] += nw; t[3] += nwo; t[4] += btp; t[5] += bfp;
  if (half === 'development' && matches(file) && (tp < nw || fp > 0 || btp !== tp || bfp !== fp)) {
    process.stdout.write(`T ${file.padEnd(50)} with ${tp}/${nw} without-found ${fp}/${nwo}   base ${btp}/${bfp}\n`);
    if (filter) {
      for (const w of e.with) if (!text.includes(norm(w))) process.stdout.write(`   MISSING: ${w.slice(0, 100)}\n`);
      for (const w of e.without) if (text.includes(norm(w))) process.stdout.write(`   KEPT: ${w.slice(0, 100)}\n`);
    }
  }
}
for (const [half, [tp, fp, nw, , btp, bfp]] of Object.entries(tally)) {
  const sc = (tp: number, fp: number) => { const fn = nw - tp; const p = tp / (tp + fp); const r = tp / nw; return `F1 ${f(2 * tp / (2 * tp + fp + fn))} P ${f(p)} R ${f(r)}`; };
  process.stdout.write(`== trafilatura ${half.padEnd(12)} ours ${sc(tp, fp)} | base ${sc(btp, bfp)}\n`);
}
