// Scrape bench: the web.scrape pipeline (parse, Readability, text, Markdown)
// on linkedom, as webcap runs it, against the same steps on jsdom, the
// reference DOM, on the same saved pages in the same run: pages per second and
// how well the two texts agree (targets: ≥ 2× faster, mean agreement ≥ 0.98).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { SAVED_ARTICLES, readWithJsdom, readWithLinkedom, textAgreement } from './scrape-reference.js';
import { median, type Row } from './stats.js';

const PAGES: ReadonlyArray<readonly [string, string]> = [
  ...SAVED_ARTICLES,
  ['bench/pages/news.html', 'http://news.test/world/story'],
  ['bench/pages/docs.html', 'http://docs.test/guide/page'],
  ['bench/pages/shop.html', 'http://shop.test/category/kettles'],
];

export async function scrapeBench(rounds: number): Promise<{ rows: Row[]; report: string }> {
  const pages = PAGES.filter(([file]) => existsSync(join(projectRoot(), file)))
    .map(([file, url]) => ({ file, url, html: readFileSync(join(projectRoot(), file), 'utf8') }));
  const time = (fn: () => unknown) => { const t = process.hrtime.bigint(); fn(); return Number(process.hrtime.bigint() - t) / 1e6; };
  // Warm both: the first parse of each pays for module loading and JIT.
  for (const p of pages) { readWithLinkedom(p.html, p.url); readWithJsdom(p.html, p.url); }
  const ours = pages.map(() => [] as number[]);
  const reference = pages.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    pages.forEach((p, i) => {
      // Alternate which side goes first, so machine noise hits both alike.
      if (r % 2 === 0) { ours[i].push(time(() => readWithLinkedom(p.html, p.url))); reference[i].push(time(() => readWithJsdom(p.html, p.url))); }
      else { reference[i].push(time(() => readWithJsdom(p.html, p.url))); ours[i].push(time(() => readWithLinkedom(p.html, p.url))); }
    });
  }
  const lines = ['| page | KiB | linkedom (median ms) | jsdom (median ms) | speed-up | text agreement |', '|---|---|---|---|---|---|'];
  let agreementSum = 0;
  pages.forEach((p, i) => {
    const agreement = textAgreement(readWithLinkedom(p.html, p.url).text, readWithJsdom(p.html, p.url).text);
    agreementSum += agreement;
    const [a, b] = [median(ours[i]), median(reference[i])];
    lines.push(`| ${p.file} | ${(p.html.length / 1024).toFixed(0)} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(1)}× | ${agreement.toFixed(4)} |`);
  });
  // Throughput over the whole set: one pass over every page, median pass time.
  const pass = (side: number[][]) => median(Array.from({ length: rounds }, (_, r) => side.reduce((sum, s) => sum + s[r], 0)));
  const [oursPass, refPass] = [pass(ours), pass(reference)];
  const perSecond = (ms: number) => (pages.length * 1000) / ms;
  const meanAgreement = agreementSum / pages.length;
  lines.push('', `throughput: linkedom ${perSecond(oursPass).toFixed(1)} pages/s, jsdom ${perSecond(refPass).toFixed(1)} pages/s (${(refPass / oursPass).toFixed(1)}× faster); mean text agreement ${meanAgreement.toFixed(4)} (Dice over word multisets), ${rounds} rounds of ${pages.length} pages`);
  const faster = refPass / oursPass;
  lines.push(`targets: ≥ 2× faster: ${faster >= 2 ? 'met' : 'NOT MET'}; mean agreement ≥ 0.98: ${meanAgreement >= 0.98 ? 'met' : 'NOT MET'}`);
  const rows: Row[] = [{
    name: `web.scrape pipeline, one pass over ${pages.length} pages (linkedom vs jsdom)`, webcap: oursPass, raw: refPass,
    pass: faster >= 2, target: 'ratio ≤ 0.5 (≥ 2× faster)', note: '(raw = the same pipeline on jsdom)',
  }];
  return { rows, report: lines.join('\n') };
}
