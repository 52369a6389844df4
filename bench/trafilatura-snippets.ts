// Trafilatura's test pages (bench/corpus/trafilatura) scored as its authors
// score them: over all pages, a "with" snippet found in the extracted text is a
// true positive, one missing a false negative; a "without" snippet found is a
// false positive, one missing a true negative (substring match after
// whitespace normalisation). web.scrape's pipeline on the HTML as served (the
// path auto takes for a static page) beside Readability alone, same run,
// per half of the committed split.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { decodeBody } from '../host/scrape/charset.js';
import { parseDocument } from '../host/scrape/dom.js';
import { scrapePage } from '../host/scrape/pipeline.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';
import { halfOf, type Half } from './corpus-split.js';

const DIR = join(projectRoot(), 'bench', 'corpus', 'trafilatura');
interface Entry { url: string; with: string[]; without: string[] }
interface Counts { tp: number; fp: number; fn: number; tn: number; failed: number }

export const trafilaturaNames = (): string[] => Object.keys(JSON.parse(readFileSync(join(DIR, 'snippets.json'), 'utf8'))).map((f) => `trafilatura/${f}`);

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

function count(c: Counts, e: Entry, text: string): void {
  const t = norm(text);
  const tp = e.with.filter((w) => t.includes(norm(w))).length;
  const fp = e.without.filter((w) => t.includes(norm(w))).length;
  c.tp += tp; c.fp += fp; c.fn += e.with.length - tp; c.tn += e.without.length - fp;
}

const scores = (c: Counts) => {
  const p = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 0;
  const r = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0;
  return `${(2 * c.tp / Math.max(1, 2 * c.tp + c.fp + c.fn)).toFixed(4)} (P ${p.toFixed(4)}, R ${r.toFixed(4)}, accuracy ${((c.tp + c.tn) / Math.max(1, c.tp + c.tn + c.fp + c.fn)).toFixed(4)})`;
};

export type Reader = (file: string, entry: Entry, html: Buffer) => Promise<string>;
export type { Entry };

/** Each reader (label → how it reads a page; a throw counts as a failed call and an empty text), per half. */
export async function trafilaturaBench(readers: Record<string, Reader>): Promise<string> {
  const entries = JSON.parse(readFileSync(join(DIR, 'snippets.json'), 'utf8')) as Record<string, Entry>;
  const labels = [...Object.keys(readers), 'Readability alone'];
  const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0, failed: 0 });
  const tally = new Map<Half, { counts: Counts[]; pages: number }>([['development', { counts: labels.map(zero), pages: 0 }], ['held-out', { counts: labels.map(zero), pages: 0 }]]);
  for (const [file, e] of Object.entries(entries)) {
    const bytes = readFileSync(join(DIR, 'pages', file));
    const t = tally.get(halfOf(`trafilatura/${file}`))!;
    t.pages++;
    for (const [i, read] of Object.values(readers).entries()) {
      let text = '';
      try { text = await read(file, e, bytes); } catch { t.counts[i].failed++; }
      count(t.counts[i], e, text);
    }
    const article = readArticle(parseDocument(decodeBody(bytes, 'text/html'), e.url));
    count(t.counts[labels.length - 1], e, article ? plainText(article.content) : '');
  }
  const lines = [`| half | pages | ${labels.map((l) => `${l} F1 (P, R, accuracy)`).join(' | ')} | failed calls (${Object.keys(readers).join(', ')}) |`, `|---|---|${labels.map(() => '---|').join('')}---|`];
  for (const [half, t] of tally) lines.push(`| ${half} | ${t.pages} | ${t.counts.map(scores).join(' | ')} | ${t.counts.slice(0, -1).map((c) => c.failed).join(', ')} |`);
  return lines.join('\n');
}

/** web.scrape's pipeline in-process on the HTML as served (no fetch): what the static path extracts. */
export const inProcess: Reader = async (_file, e, bytes) =>
  scrapePage({ url: e.url, status: 200, headers: { 'content-type': 'text/html' }, html: decodeBody(bytes, 'text/html'), rendered: false }, { format: 'text', mainContent: true }).content_text;

export const trafilaturaPage = (file: string): Buffer => readFileSync(join(DIR, 'pages', file));
