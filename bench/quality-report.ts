// Per-page scores of the corpus, worst first: `npx tsx bench/quality-report.ts`
// (what to look at when the quality row moves).
import { baselineText, loadCorpus, meanScore, pipelineText } from './quality.js';

const corpus = loadCorpus();
const f = (n: number) => n.toFixed(3);
for (const [label, pages] of [['real-world', corpus.filter((p) => !p.synthetic)], ['synthetic', corpus.filter((p) => p.synthetic)]] as const) {
  const ours = meanScore(pages, pipelineText);
  const base = meanScore(pages, baselineText);
  console.log(`${label}: ${pages.length} pages; webcap F1 ${f(ours.f1)} P ${f(ours.precision)} R ${f(ours.recall)}; baseline F1 ${f(base.f1)} P ${f(base.precision)} R ${f(base.recall)}`);
  const rows = ours.perPage.map((p, i) => ({ ...p, base: base.perPage[i] })).sort((a, b) => a.f1 - b.f1);
  for (const r of rows) console.log(`  ${r.name.padEnd(45)} F1 ${f(r.f1)} P ${f(r.precision)} R ${f(r.recall)} | base F1 ${f(r.base.f1)} P ${f(r.base.precision)} R ${f(r.base.recall)}`);
}
