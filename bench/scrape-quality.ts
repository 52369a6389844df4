// The quality and throughput rows of `npm run bench` for web.scrape's default
// path (a static page read over plain HTTP, no browser): mean token F1,
// precision and recall of content_text against the corpus's hand-checked
// text, beside the baseline (Readability alone) in the same run; and pages
// per second through the whole pipeline (parse, checks, Readability, second
// opinion, text, Markdown) on saved static pages.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { scrapePage } from '../host/scrape/pipeline.js';
import { baselineText, loadCorpus, meanScore, pipelineText } from './quality.js';
import { SAVED_ARTICLES } from './scrape-reference.js';
import { median } from './stats.js';

export const F1_TARGET = 0.975;
export const PAGES_PER_SECOND_TARGET = 10;

export function qualityBench(rounds: number): string {
  const all = loadCorpus();
  // The target is over real-world pages; Readability's unit cases (synthetic/) get their own row.
  const corpus = all.filter((p) => !p.synthetic);
  const synthetic = all.filter((p) => p.synthetic);
  const ours = meanScore(corpus, pipelineText);
  const base = meanScore(corpus, baselineText);
  const oursSynthetic = meanScore(synthetic, pipelineText);
  const baseSynthetic = meanScore(synthetic, baselineText);
  const statics = [
    ...corpus.map((p) => ({ url: p.url, html: p.html })),
    ...[...SAVED_ARTICLES, ['bench/pages/news.html', 'http://news.test/world/story'], ['bench/pages/docs.html', 'http://docs.test/guide/page']]
      .filter(([file]) => existsSync(join(projectRoot(), file)))
      .map(([file, url]) => ({ url, html: readFileSync(join(projectRoot(), file), 'utf8') })),
  ];
  // Wall time and this process's CPU time per pass: on a machine shared with other work the wall
  // clock also counts the time the pipeline waited for a core; CPU time is what it costs.
  const pass = () => {
    const t = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (const p of statics) scrapePage({ url: p.url, status: 200, headers: { 'content-type': 'text/html' }, html: p.html, rendered: false }, { format: 'markdown', mainContent: true });
    const used = process.cpuUsage(cpu);
    return { wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: (used.user + used.system) / 1000 };
  };
  pass(); // warm-up: module loading and JIT
  const passes = Array.from({ length: rounds }, pass);
  const perSecond = (statics.length * 1000) / median(passes.map((p) => p.cpu));
  const perWallSecond = (statics.length * 1000) / median(passes.map((p) => p.wall));
  const f = (n: number) => n.toFixed(4);
  return [
    '| measure | webcap | baseline (Readability alone) | target | met |',
    '|---|---|---|---|---|',
    `| quality: mean token F1 of content_text, ${corpus.length} real-world corpus pages | ${f(ours.f1)} (P ${f(ours.precision)}, R ${f(ours.recall)}) | ${f(base.f1)} (P ${f(base.precision)}, R ${f(base.recall)}) | F1 ≥ ${F1_TARGET} and ≥ baseline | ${ours.f1 >= F1_TARGET && ours.f1 >= base.f1 ? 'yes' : 'NO'} |`,
    `| quality on ${synthetic.length} synthetic pages (Readability's and unfluff's unit cases; not in the target) | ${f(oursSynthetic.f1)} (P ${f(oursSynthetic.precision)}, R ${f(oursSynthetic.recall)}) | ${f(baseSynthetic.f1)} (P ${f(baseSynthetic.precision)}, R ${f(baseSynthetic.recall)}) | | |`,
    `| throughput: static pages through the default path, ${statics.length} pages × ${rounds} rounds, one core | ${perSecond.toFixed(1)} pages per CPU-second (${perWallSecond.toFixed(1)} per wall-clock second; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores) | | ≥ ${PAGES_PER_SECOND_TARGET} pages/s | ${perSecond >= PAGES_PER_SECOND_TARGET ? 'yes' : 'NO'} |`,
    '',
    'per real-world page (F1): ' + ours.perPage.map((p, i) => `${p.name} ${f(p.f1)} (baseline ${f(base.perPage[i].f1)})`).join('; '),
  ].join('\n');
}
