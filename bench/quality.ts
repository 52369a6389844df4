// Extraction quality: mean token precision, recall and F1 of web.scrape's
// content_text against hand-checked main text (bench/corpus/<source>/<page>/
// source.html + expected.html), for the pipeline as it runs (the default,
// plain-HTTP path for a static page) and for the baseline, Readability alone
// (what the pipeline returned before extraction got its second opinions).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { parseDocument } from '../host/scrape/dom.js';
import { scrapePage } from '../host/scrape/pipeline.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';

// synthetic: one of Readability's unit cases (a made-up page testing one cleaning rule), kept out of the real-world mean.
export interface CorpusPage { name: string; url: string; html: string; truth: string; synthetic: boolean }
export interface Score { precision: number; recall: number; f1: number }

// The URL the Readability suite serves its pages at.
const SUITE_URL = 'http://fakehost/test/page.html';

// Sets kept unseen: never split, never tuned on, never shown page by page; only the
// bench's final aggregate reads them (loadUnseenCorpus), every page as held-out.
export const UNSEEN_SETS: readonly string[] = ['newspaper', 'fundus'];

/** Every scored set but the unseen ones. */
export function loadCorpus(root = join(projectRoot(), 'bench', 'corpus')): CorpusPage[] {
  return loadSets(root, (set) => !UNSEEN_SETS.includes(set));
}

/** The unseen sets alone: for aggregate scores only. */
export function loadUnseenCorpus(root = join(projectRoot(), 'bench', 'corpus')): CorpusPage[] {
  return loadSets(root, (set) => UNSEEN_SETS.includes(set));
}

function loadSets(root: string, wanted: (set: string) => boolean): CorpusPage[] {
  const pages: CorpusPage[] = [];
  for (const source of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && wanted(d.name)).sort((a, b) => a.name.localeCompare(b.name))) {
    for (const page of readdirSync(join(root, source.name)).sort()) {
      const dir = join(root, source.name, page);
      if (!existsSync(join(dir, 'source.html')) || !existsSync(join(dir, 'expected.html'))) continue;
      // expected.html is a fragment: wrapped, so every DOM gives it a body.
      const expected = parseDocument(`<!doctype html><html><body>${readFileSync(join(dir, 'expected.html'), 'utf8')}</body></html>`, SUITE_URL);
      const truth = plainText(expected.body);
      pages.push({ name: `${source.name}/${page}`, url: SUITE_URL, html: readFileSync(join(dir, 'source.html'), 'utf8'), truth, synthetic: source.name.endsWith('-synthetic') });
    }
  }
  return pages;
}

const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Token-level precision, recall and F1 over word multisets (the usual main-text extraction score). */
export function tokenScore(predicted: string, truth: string): Score {
  const p = tokens(predicted);
  const t = tokens(truth);
  if (!p.length && !t.length) return { precision: 1, recall: 1, f1: 1 };
  const counts = new Map<string, number>();
  for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of p) {
    const n = counts.get(w) ?? 0;
    if (n > 0) { shared++; counts.set(w, n - 1); }
  }
  const precision = p.length ? shared / p.length : 0;
  const recall = t.length ? shared / t.length : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** web.scrape's content_text on the default path for a static page: the HTML as served. */
export function pipelineText(page: CorpusPage): string {
  return scrapePage({ url: page.url, status: 200, headers: { 'content-type': 'text/html' }, html: page.html, rendered: false }, { format: 'text', mainContent: true }).content_text;
}

/** The baseline: Readability's article alone, as the pipeline returned it before this work. */
export function baselineText(page: CorpusPage): string {
  const article = readArticle(parseDocument(page.html, page.url));
  return article ? plainText(article.content) : '';
}

export function meanScore(pages: CorpusPage[], extract: (p: CorpusPage) => string): Score & { perPage: Array<Score & { name: string }> } {
  const perPage = pages.map((p) => ({ name: p.name, ...tokenScore(extract(p), p.truth) }));
  const mean = (k: keyof Score) => perPage.reduce((s, x) => s + x[k], 0) / Math.max(1, perPage.length);
  return { precision: mean('precision'), recall: mean('recall'), f1: mean('f1'), perPage };
}
