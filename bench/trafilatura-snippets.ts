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

export function trafilaturaBench(): string {
  const entries = JSON.parse(readFileSync(join(DIR, 'snippets.json'), 'utf8')) as Record<string, Entry>;
  const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0, failed: 0 });
  const tally: Record<Half, { ours: Counts; readability: Counts; pages: number }> = {
    development: { ours: zero(), readability: zero(), pages: 0 }, 'held-out': { ours: zero(), readability: zero(), pages: 0 },
  };
  for (const [file, e] of Object.entries(entries)) {
    const html = decodeBody(readFileSync(join(DIR, 'pages', file)), 'text/html');
    const t = tally[halfOf(`trafilatura/${file}`)];
    t.pages++;
    let ours = '';
    try {
      ours = scrapePage({ url: e.url, status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false }, { format: 'text', mainContent: true }).content_text;
    } catch { t.ours.failed++; }
    count(t.ours, e, ours);
    const article = readArticle(parseDocument(html, e.url));
    count(t.readability, e, article ? plainText(article.content) : '');
  }
  const lines = ['| half | pages | web.scrape (static path) F1 (P, R, accuracy) | Readability alone F1 (P, R, accuracy) | web.scrape refused |', '|---|---|---|---|---|'];
  for (const half of ['development', 'held-out'] as const) {
    const t = tally[half];
    lines.push(`| ${half} | ${t.pages} | ${scores(t.ours)} | ${scores(t.readability)} | ${t.ours.failed} |`);
  }
  return lines.join('\n');
}
