// Auto vs never through the whole web.scrape call (host policy chain, plain
// HTTP from a loopback server, Chromium when auto decides to render), on every
// corpus page set, per half of the committed split (corpus-split.ts): mean
// token F1, precision and recall of content_text against the hand-checked
// text, failed calls and renders; Readability alone on the same pages, same run.
import type { Host } from '../host/host.js';
import { serve } from '../tests/helpers/fixture-server.js';
import { testConfig, testHost } from '../tests/helpers/host.js';
import { trafilaturaBench, trafilaturaNames, trafilaturaPage } from './trafilatura-snippets.js';
import { checkedSplit, type Half } from './corpus-split.js';
import { stepsTable } from './scrape-steps.js';
import { baselineText, loadCorpus, loadUnseenCorpus, tokenScore, UNSEEN_SETS, type CorpusPage, type Score } from './quality.js';

interface Tally { scores: Score[]; failed: number; rendered: number; ms: number }
const empty = (): Tally => ({ scores: [], failed: 0, rendered: 0, ms: 0 });
const mean = (t: Tally, k: keyof Score) => t.scores.reduce((s, x) => s + x[k], 0) / Math.max(1, t.scores.length);
const show = (t: Tally) => `${mean(t, 'f1').toFixed(4)} (P ${mean(t, 'precision').toFixed(4)}, R ${mean(t, 'recall').toFixed(4)})`;

const setOf = (p: CorpusPage) => p.name.split('/')[0];
const hostOf = (p: CorpusPage) => `${setOf(p)}.test`;
const pathOf = (p: CorpusPage) => `/${p.name.split('/')[1]}`;

export async function autoVsNeverBench(): Promise<string> {
  const seen = loadCorpus();
  const split = checkedSplit([...seen.map((p) => p.name), ...trafilaturaNames()]);
  // Unseen sets are not split: every page is held out, and only their means are printed.
  const pages = [...seen, ...loadUnseenCorpus()];
  const unseen = (p: CorpusPage) => UNSEEN_SETS.includes(setOf(p));
  const halfOf = (p: CorpusPage): Half | 'unseen' => (unseen(p) ? 'unseen' : split.development.includes(p.name) ? 'development' : 'held-out');
  const routes = Object.fromEntries(pages.map((p) => [pathOf(p), (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const page = pages.find((x) => hostOf(x) === (req.headers.host ?? '').split(':')[0] && pathOf(x) === (req.url ?? '').split('?')[0]);
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page?.html ?? 'not found');
  }]));
  // trafilatura's pages, as bytes (their own charset declarations decide the decoding).
  routes['/trafilatura'] = (req, res) => {
    const file = decodeURIComponent(new URL(req.url ?? '/', 'http://x').searchParams.get('file') ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(trafilaturaPage(file));
  };
  const site = await serve(routes);
  const resolve = { ...Object.fromEntries([...new Set(pages.map(hostOf))].map((h) => [h, '127.0.0.1'])), 'trafilatura.test': '127.0.0.1' };
  const host: Host = testHost(testConfig({ network: { resolve } }));
  const key = (p: CorpusPage) => `${setOf(p)} | ${halfOf(p)}`;
  const tallies = new Map<string, Record<'auto' | 'never' | 'readability', Tally>>();
  const failures: string[] = [];
  let snippets = '';
  try {
    for (const p of pages) {
      const t = tallies.get(key(p)) ?? { auto: empty(), never: empty(), readability: empty() };
      tallies.set(key(p), t);
      for (const mode of ['never', 'auto'] as const) {
        const started = performance.now();
        try {
          const r = (await host.call('web.scrape', { url: site.url(hostOf(p), pathOf(p)), render: mode, cache: false, format: 'text' })) as unknown as { content_text: string; rendered: boolean };
          t[mode].scores.push(tokenScore(r.content_text, p.truth));
          if (r.rendered) t[mode].rendered++;
        } catch (err) {
          t[mode].failed++;
          t[mode].scores.push(tokenScore('', p.truth));
          failures.push(unseen(p) ? `${mode} a page of the unseen ${setOf(p)} set (name withheld)` : `${mode} ${p.name}: ${(err as Error).message}`);
        }
        t[mode].ms += performance.now() - started;
      }
      const started = performance.now();
      t.readability.scores.push(tokenScore(baselineText(p), p.truth));
      t.readability.ms += performance.now() - started;
    }
    const via = (mode: 'auto' | 'never') => async (file: string) => {
      try {
        return ((await host.call('web.scrape', { url: site.url('trafilatura.test', `/trafilatura?file=${encodeURIComponent(file)}`), render: mode, cache: false, format: 'text' })) as unknown as { content_text: string }).content_text;
      } catch (err) {
        failures.push(`${mode} trafilatura/${file}: ${(err as Error).message}`);
        throw err;
      }
    };
    snippets = await trafilaturaBench({ auto: via('auto'), never: via('never') });
  } finally {
    await host.close();
    await site.close();
  }
  const lines = [
    '| set | half | pages | auto F1 (P, R) | never F1 (P, R) | Readability alone F1 (P, R) | auto failed / rendered | never failed | auto ≥ never |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  let allHold = true;
  for (const [k, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    const [set, half] = k.split(' | ');
    const holds = mean(t.auto, 'f1') >= mean(t.never, 'f1') && t.auto.failed === 0 && t.never.failed === 0;
    allHold &&= holds;
    lines.push(`| ${set} | ${half} | ${t.auto.scores.length} | ${show(t.auto)} | ${show(t.never)} | ${show(t.readability)} | ${t.auto.failed} / ${t.auto.rendered} | ${t.never.failed} | ${holds ? 'yes' : 'NO'} |`);
  }
  const total = [...tallies.values()];
  const sum = (m: 'auto' | 'never', f: (t: Tally) => number) => total.reduce((s, t) => s + f(t[m]), 0);
  lines.push('', `whole web.scrape calls, fetched from loopback: never ${(sum('never', (t) => t.scores.length) * 1000 / sum('never', (t) => t.ms)).toFixed(1)} pages/s, auto ${(sum('auto', (t) => t.scores.length) * 1000 / sum('auto', (t) => t.ms)).toFixed(1)} pages/s (wall clock, shared machine).`);
  lines.push(`auto ≥ never on every set and half, 0 failed calls: ${allHold ? 'yes' : 'NO'}`);
  lines.push('', "trafilatura's test pages through the same calls, scored by snippet precision/recall as its authors score them:", '', snippets);
  lines.push('', `Refinement steps compared in the same run, in-process on the HTML as served (the static path): main is main's default; main+justext adds the jusText reading (boilerplate runs at the answer's edges), +justextInside inside the answer too; main+vote the older block vote (names: bench/scrape-steps.ts):`, '', stepsTable());
  if (failures.length) lines.push('', 'failed calls:', ...failures.map((f) => `- ${f}`));
  return lines.join('\n');
}
