// Imports the Fundus news scraper's parser regression pages as an unseen
// token-F1 set. Fundus keeps, per publisher, saved pages
// (tests/resources/parser/test_data/<group>/<Publisher>_<date>.html.gz, their
// crawl dates in <group>/meta.info) and one JSON of what each version of its
// hand-written parser must extract (<Publisher>.json: { V1: { body: … }, V1_1: … }).
// Fundus gives each parser version the page crawled in its validity window, so
// the versions in order pair with the pages in crawl-date order.
// Writes bench/corpus/fundus/<group>-<Publisher>_<date>/source.html (the page,
// decompressed, bytes otherwise unchanged) and expected.html (the body as
// Fundus reads it: summary, then each section's headline and paragraphs, one
// escaped <p> each). Left out, each with its reason printed: bodies under
// MIN_WORDS words, texts in a script written without spaces between words
// (the token score cannot split them), and pairs whose expected words are not
// on the page (a wrong pairing or a body taken from elsewhere).
// `node dist/bench/fundus-import.js <directory holding tests/resources/parser/test_data>`
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { projectRoot } from '../manifests/load.js';
import { escapeHtml } from '../host/report/html-printer.js';
import { parseDocument } from '../host/scrape/dom.js';

const MIN_WORDS = 50;
// Share of the expected words found anywhere in the page's text (scripts included) for the pair to count.
const MIN_ON_PAGE = 0.9;
// Share of letters in scripts written without spaces (Han, kana, Thai, …) above which the text cannot be scored by words.
const MAX_UNSPACED = 0.3;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

interface Section { headline: string[]; paragraphs: string[] }
interface Body { summary: string[]; sections: Section[] }
type Meta = Record<string, { url: string; crawl_date: string }>;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The body's text blocks in Fundus's own order (summary, then each section's headline and paragraphs). */
export function bodyBlocks(body: Body): string[] {
  return [...body.summary, ...body.sections.flatMap((s) => [...s.headline, ...s.paragraphs])].map((t) => t.trim()).filter(Boolean);
}

/** Parser versions in release order: V1 < V1_1 < V1_2 < V2 < V2_1. */
export function versionOrder(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^V/, '').split('_').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

function onPageShare(expected: string[], html: string): number {
  const page = new Map<string, number>();
  for (const w of words(parseDocument(html, 'http://fakehost/').documentElement?.textContent ?? '')) page.set(w, (page.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected) {
    const n = page.get(w) ?? 0;
    if (n > 0) { found++; page.set(w, n - 1); }
  }
  return found / Math.max(1, expected.length);
}

export function importFundus(source: string, target = join(projectRoot(), 'bench', 'corpus', 'fundus')): { kept: number; skipped: string[] } {
  const dataDir = join(source, 'tests', 'resources', 'parser', 'test_data');
  rmSync(target, { recursive: true, force: true });
  const skipped: string[] = [];
  let kept = 0;
  for (const group of readdirSync(dataDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    const dir = join(dataDir, group);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.info'), 'utf8')) as Meta;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const publisher = file.slice(0, -'.json'.length);
      const versions = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, { body?: Body }>;
      const pages = Object.keys(meta).filter((p) => p.startsWith(`${publisher}_`) && existsSync(join(dir, p)))
        .sort((a, b) => meta[a].crawl_date.localeCompare(meta[b].crawl_date));
      const names = Object.keys(versions).sort(versionOrder);
      if (pages.length !== names.length) { skipped.push(`${group}/${publisher}: ${names.length} parser versions for ${pages.length} pages`); continue; }
      names.forEach((version, i) => {
        const page = pages[i];
        const name = `${group}-${page.slice(0, -'.html.gz'.length)}`;
        const body = versions[version].body;
        if (!body) { skipped.push(`${name}: no body expected`); return; }
        const blocks = bodyBlocks(body);
        const text = blocks.join('\n');
        const w = words(text);
        const letters = text.match(/\p{L}/gu) ?? [];
        if (letters.filter((c) => UNSPACED.test(c)).length > MAX_UNSPACED * letters.length) { skipped.push(`${name}: written without spaces between words`); return; }
        if (w.length < MIN_WORDS) { skipped.push(`${name}: expected body of ${w.length} words`); return; }
        const html = gunzipSync(readFileSync(join(dir, page)));
        const share = onPageShare(w, html.toString('utf8'));
        if (share < MIN_ON_PAGE) { skipped.push(`${name}: only ${share.toFixed(2)} of the expected words are on the page`); return; }
        const out = join(target, name);
        mkdirSync(out, { recursive: true });
        writeFileSync(join(out, 'source.html'), html);
        writeFileSync(join(out, 'expected.html'), blocks.map((b) => `<p>${escapeHtml(b)}</p>`).join('\n') + '\n');
        kept++;
      });
    }
  }
  return { kept, skipped };
}

if (process.argv[1]?.endsWith('fundus-import.js')) {
  const source = process.argv[2];
  if (!source) throw new Error('usage: node dist/bench/fundus-import.js <directory holding tests/resources/parser/test_data>');
  const { kept, skipped } = importFundus(source);
  process.stdout.write(`kept ${kept} pages\nleft out ${skipped.length}:\n${skipped.map((s) => `- ${s}`).join('\n')}\n`);
}
