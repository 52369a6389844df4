// Step combinations by name, for the benches (stepsOf), and the table that compares them in one run, in-process on the HTML as served
// (what web.scrape reads for a static page), per corpus set and half,
// beside Readability alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { decodeBody } from '../host/scrape/charset.js';
import { parseDocument } from '../host/scrape/dom.js';
import { DEFAULT_STEPS, READABILITY_ALONE, scrapePage } from '../host/scrape/pipeline.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';
import type { RefineSteps } from '../host/scrape/types.js';
import { halfOf } from './corpus-split.js';
import { baselineText, loadCorpus, loadUnseenCorpus, tokenScore, UNSEEN_SETS, type Score } from './quality.js';
import type { Entry } from './trafilatura-snippets.js';

// Combinations by name: a base, then steps added (+) or taken away (-) in order.
// Bases: "readability" (Readability alone: every step off), "main" (main's default
// before this round: marks, clean, second opinion, sharpen, structured, with the rules
// as first tuned), "default" (the pipeline's default now; the same as main since the
// rules this round added lowered a held-out or unseen set and stayed options). E.g. "readability+clean", "main-secondOpinion".
// Main's default; the jusText candidate (main + the jusText reading, runs of boilerplate at the answer's edges),
// the same taking jusText's boilerplate inside the answer too, and the older whole-page block vote (main+vote).
export const COMPARED = ['main', 'main+justext', 'main+justext+justextInside', 'main+vote'];

const MAIN: RefineSteps = { ...READABILITY_ALONE, marks: true, clean: true, secondOpinion: true, sharpen: true, structured: true };
const BASES: Record<string, RefineSteps> = { readability: READABILITY_ALONE, main: MAIN, default: DEFAULT_STEPS };

export function stepsOf(name: string): RefineSteps {
  const [base, ...changes] = name.split(/(?=[+-])/);
  const steps: RefineSteps = { ...(BASES[base] ?? { ...READABILITY_ALONE, ...flag(base) }) };
  for (const change of changes) Object.assign(steps, change[0] === '+' ? flag(change.slice(1)) : { [known(change.slice(1))]: false });
  return steps;
}

function known(step: string): keyof RefineSteps {
  if (!(step in READABILITY_ALONE)) throw new Error(`unknown step ${step}: one of ${Object.keys(READABILITY_ALONE).join(', ')}`);
  return step as keyof RefineSteps;
}
const flag = (step: string): Partial<RefineSteps> => ({ [known(step)]: true });

export const extractWith = (html: string, url: string, steps: RefineSteps) =>
  scrapePage({ url, status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false }, { format: 'text', mainContent: true, steps }).content_text;

const f = (n: number) => n.toFixed(4);
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Markdown table: mean token F1 (P, R) per set and half, and trafilatura's snippet F1 (P, R), for each combination. */
export function stepsTable(names = COMPARED): string {
  const variants = names.map((n) => ({ name: n, steps: stepsOf(n) }));
  const rows = new Map<string, string[]>();
  const sums = new Map<string, Score[][]>();
  // The unseen sets join as one row each, every page held out ("unseen"), means only.
  for (const p of [...loadCorpus(), ...loadUnseenCorpus()]) {
    if (p.synthetic) continue;
    const scores = [tokenScore(baselineText(p), p.truth), ...variants.map((v) => tokenScore(extractWith(p.html, p.url, v.steps), p.truth))];
    const set = p.name.split('/')[0];
    const k = `${set} | ${UNSEEN_SETS.includes(set) ? 'unseen' : halfOf(p.name)}`;
    const s = sums.get(k) ?? scores.map(() => []);
    scores.forEach((x, i) => s[i].push(x));
    sums.set(k, s);
  }
  const mean = (xs: Score[], k: keyof Score) => xs.reduce((s, x) => s + x[k], 0) / Math.max(1, xs.length);
  for (const [k, s] of sums) rows.set(`${k} | ${s[0].length} pages, token F1`, s.map((xs) => `${f(mean(xs, 'f1'))} (P ${f(mean(xs, 'precision'))}, R ${f(mean(xs, 'recall'))})`));
  const dir = join(projectRoot(), 'bench', 'corpus', 'trafilatura');
  const entries = JSON.parse(readFileSync(join(dir, 'snippets.json'), 'utf8')) as Record<string, Entry>;
  const tally = new Map<string, number[][]>();
  for (const [file, e] of Object.entries(entries)) {
    const half = halfOf(`trafilatura/${file}`);
    const html = decodeBody(readFileSync(join(dir, 'pages', file)), 'text/html');
    const article = readArticle(parseDocument(html, e.url));
    const texts = [norm(article ? plainText(article.content) : ''), ...variants.map((v) => { try { return norm(extractWith(html, e.url, v.steps)); } catch { return ''; } })];
    const t = tally.get(half) ?? texts.map(() => [0, 0, 0, 0]);
    tally.set(half, t);
    texts.forEach((text, i) => {
      t[i][0] += e.with.filter((w) => text.includes(norm(w))).length;
      t[i][1] += e.without.filter((w) => text.includes(norm(w))).length;
      t[i][2] += e.with.length;
      t[i][3]++;
    });
  }
  for (const [half, t] of tally) {
    rows.set(`trafilatura | ${half} | ${t[0][3]} pages, snippet F1`, t.map(([tp, fp, nw]) => `${f(2 * tp / Math.max(1, tp + fp + nw))} (P ${f(tp / Math.max(1, tp + fp))}, R ${f(tp / Math.max(1, nw))})`));
  }
  const lines = [`| set | half | measure | Readability alone | ${names.join(' | ')} |`, `|---|---|---|---|${names.map(() => '---|').join('')}`];
  for (const [k, cells] of [...rows].sort(([a], [b]) => a.localeCompare(b))) lines.push(`| ${k} | ${cells.join(' | ')} |`);
  return lines.join('\n');
}
