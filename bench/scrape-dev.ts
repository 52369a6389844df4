// Tuning aid: web.scrape's pipeline in-process (no fetch) on every corpus set,
// for several step combinations in one run, on development-half pages only
// (the only ones rules may be tuned on): means per set, and with --pages each
// page where the combinations differ. Held-out pages are not read at all, so
// they stay a measure for the final run alone.
// `node dist/bench/scrape-dev.js [page-name-filter] [--variants main,readability+clean,main-secondOpinion] [--pages]`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { decodeBody } from '../host/scrape/charset.js';
import { scrapePage } from '../host/scrape/pipeline.js';
import type { RefineSteps } from '../host/scrape/types.js';
import { halfOf } from './corpus-split.js';
import { stepsOf } from './scrape-steps.js';
import { baselineText, loadCorpus, tokenScore, type Score } from './quality.js';
import { trafilaturaPage, type Entry } from './trafilatura-snippets.js';
import { parseDocument } from '../host/scrape/dom.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i === -1 ? undefined : args.splice(i, 2)[1]; };
const variantNames = (flag('--variants') ?? 'main,default').split(',');
const showPages = args.includes('--pages') ? (args.splice(args.indexOf('--pages'), 1), true) : false;
const filter = args[0] ? new RegExp(args[0]) : undefined;
const matches = (name: string) => !filter || filter.test(name);
const f = (n: number) => n.toFixed(3);

const variants = variantNames.map((n) => ({ name: n, steps: stepsOf(n) }));
const extract = (html: string, url: string, steps: RefineSteps) =>
  scrapePage({ url, status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false }, { format: 'text', mainContent: true, steps }).content_text;

const sums = new Map<string, Score[][]>();
for (const p of loadCorpus()) {
  const half = halfOf(p.name);
  if (p.synthetic || !matches(p.name) || half !== 'development') continue;
  const scores = [tokenScore(baselineText(p), p.truth), ...variants.map((v) => tokenScore(extract(p.html, p.url, v.steps), p.truth))];
  const k = `${p.name.split('/')[0]} ${half}`;
  const s = sums.get(k) ?? scores.map(() => []);
  scores.forEach((x, i) => s[i].push(x));
  sums.set(k, s);
  if (half === 'development' && showPages && new Set(scores.slice(1).map((x) => x.f1.toFixed(4))).size > 1) {
    process.stdout.write(`${p.name.padEnd(45)} ${scores.map((x, i) => `${i ? variants[i - 1].name : 'readability'} ${f(x.f1)}/${f(x.precision)}/${f(x.recall)}`).join('  ')}\n`);
  }
}
const mean = (xs: Score[], k: keyof Score) => xs.reduce((s, x) => s + x[k], 0) / Math.max(1, xs.length);
const show = (xs: Score[]) => `${f(mean(xs, 'f1'))} (P ${f(mean(xs, 'precision'))} R ${f(mean(xs, 'recall'))})`;
process.stdout.write(`set half n | readability | ${variants.map((v) => v.name).join(' | ')}\n`);
for (const [k, s] of [...sums].sort()) process.stdout.write(`== ${k.padEnd(22)} n=${s[0].length} | ${s.map(show).join(' | ')}\n`);

// trafilatura snippets
const entries = JSON.parse(readFileSync(join(projectRoot(), 'bench', 'corpus', 'trafilatura', 'snippets.json'), 'utf8')) as Record<string, Entry>;
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const tally: Record<string, number[][]> = {};
for (const [file, e] of Object.entries(entries)) {
  const half = halfOf(`trafilatura/${file}`);
  if (!matches(file) || half !== 'development') continue;
  const html = decodeBody(trafilaturaPage(file), 'text/html');
  const article = readArticle(parseDocument(html, e.url));
  const texts = [norm(article ? plainText(article.content) : ''), ...variants.map((v) => { try { return norm(extract(html, e.url, v.steps)); } catch { return ''; } })];
  const t = (tally[half] ??= texts.map(() => [0, 0, 0]));
  const lines: string[] = [];
  texts.forEach((text, i) => {
    const tp = e.with.filter((w) => text.includes(norm(w))).length;
    const fp = e.without.filter((w) => text.includes(norm(w))).length;
    t[i][0] += tp; t[i][1] += fp; t[i][2] += e.with.length;
    lines.push(`${i ? variants[i - 1].name : 'readability'} ${tp}/${e.with.length} fp ${fp}/${e.without.length}`);
  });
  if (half === 'development' && showPages && new Set(lines.slice(1).map((l) => l.replace(/^\S+ /, ''))).size > 1) process.stdout.write(`T ${file.padEnd(44)} ${lines.join('  ')}\n`);
}
for (const [half, t] of Object.entries(tally).sort()) {
  const sc = ([tp, fp, nw]: number[]) => `F1 ${f(2 * tp / (2 * tp + fp + nw - tp))} (P ${f(tp / (tp + fp))} R ${f(tp / nw)})`;
  process.stdout.write(`== trafilatura ${half.padEnd(12)} | ${t.map(sc).join(' | ')}\n`);
}
