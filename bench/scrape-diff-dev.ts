// Tuning aid, development pages only: the lines one step combination keeps and
// another drops, each marked by whether the page's expected text holds it.
// `node dist/bench/scrape-diff-dev.js <page-name-filter> [a=main] [b=default]`.
import { halfOf } from './corpus-split.js';
import { extractWith, stepsOf } from './scrape-steps.js';
import { loadCorpus } from './quality.js';

const [filter, a = 'main', b = 'default'] = process.argv.slice(2);
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
for (const p of loadCorpus()) {
  if (halfOf(p.name) !== 'development' || !new RegExp(filter ?? '.').test(p.name)) continue;
  const lines = (name: string) => extractWith(p.html, p.url, stepsOf(name)).split('\n').map(norm).filter(Boolean);
  const [la, lb] = [lines(a), lines(b)];
  const truth = norm(p.truth);
  const only = (xs: string[], ys: string[]) => xs.filter((x) => !ys.includes(x));
  const out = [...only(la, lb).map((l) => `  only ${a}: ${truth.includes(l) ? 'ARTICLE' : 'chrome '} ${l.slice(0, 110)}`), ...only(lb, la).map((l) => `  only ${b}: ${truth.includes(l) ? 'ARTICLE' : 'chrome '} ${l.slice(0, 110)}`)];
  if (out.length) process.stdout.write(`${p.name}\n${out.join('\n')}\n`);
}
