// End-to-end speed of the static path on one core: every real-world corpus
// page fetched from a loopback server through web.scrape's own HTTP client
// (http-fetch.ts: the network rules on every hop) and extracted by the whole
// pipeline; beside it, in the same run and the same process, the same fetch
// followed by Readability alone. Run pinned (`taskset -c 0`, as
// `npm run bench:scrape` does) so the server, the client and the extraction
// share one core; pages per CPU-second of this process (server included) and
// per wall-clock second.
import { cpus, loadavg } from 'node:os';
import { serve } from '../tests/helpers/fixture-server.js';
import { testConfig } from '../tests/helpers/host.js';
import { fetchPage } from '../host/scrape/http-fetch.js';
import { parseDocument } from '../host/scrape/dom.js';
import { scrapePage } from '../host/scrape/pipeline.js';
import { readArticle } from '../host/scrape/readable.js';
import { plainText } from '../host/scrape/text.js';
import { loadConfig } from '../host/config/load.js';
import { loadCorpus } from './quality.js';
import { trafilaturaNames, trafilaturaPage } from './trafilatura-snippets.js';
import type { RefineSteps } from '../host/scrape/types.js';

export const PAGES_PER_SECOND_TARGET = 10;
type Extract = (page: Awaited<ReturnType<typeof fetchPage>>) => unknown;

/** `steps`: a step combination other than the pipeline's default (a candidate's cost, measured before it is the default). */
export async function speedBench(rounds: number, steps?: RefineSteps): Promise<string> {
  const pages = [
    ...loadCorpus().filter((p) => !p.synthetic).map((p, i) => ({ path: `/c/${i}`, body: Buffer.from(p.html) as Buffer })),
    ...trafilaturaNames().map((n, i) => ({ path: `/t/${i}`, body: trafilaturaPage(n.slice('trafilatura/'.length)) })),
  ];
  const routes = Object.fromEntries(pages.map((p) => [p.path, (_req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(p.body);
  }]));
  const site = await serve(routes);
  const config = loadConfig(testConfig({ network: { resolve: { 'speed.test': '127.0.0.1' } } }));
  const pipeline: Extract = (page) => scrapePage(page, { format: 'markdown', mainContent: true, steps });
  const readability: Extract = (page) => { const a = readArticle(parseDocument(page.html, page.url)); return a ? plainText(a.content) : ''; };
  const pass = async (extract: Extract) => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    for (const p of pages) {
      try { extract(await fetchPage(site.url('speed.test', p.path), config, 30_000)); } catch { /* a refused page still cost its fetch */ }
    }
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - wall, cpu: (used.user + used.system) / 1000 };
  };
  const totals = { webcap: { wall: 0, cpu: 0 }, readability: { wall: 0, cpu: 0 } };
  try {
    await pass(pipeline); await pass(readability); // warm-up: module loading, JIT, connections
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so machine noise hits both alike.
      for (const [label, extract] of (r % 2 ? [['readability', readability], ['webcap', pipeline]] : [['webcap', pipeline], ['readability', readability]]) as Array<[keyof typeof totals, Extract]>) {
        const t = await pass(extract);
        totals[label].wall += t.wall; totals[label].cpu += t.cpu;
      }
    }
  } finally {
    await site.close();
  }
  const n = pages.length * rounds;
  const rate = (t: { wall: number; cpu: number }) => `${(n * 1000 / t.cpu).toFixed(1)} per CPU-second, ${(n * 1000 / t.wall).toFixed(1)} per wall-clock second`;
  const met = n * 1000 / totals.webcap.cpu >= PAGES_PER_SECOND_TARGET;
  return [
    `${pages.length} static pages × ${rounds} rounds, fetched from loopback and extracted in one process (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores${process.env.WEBCAP_PINNED ? `, pinned: ${process.env.WEBCAP_PINNED}` : ', not pinned'}):`,
    '',
    '| path | pages/s | target | met |',
    '|---|---|---|---|',
    `| web.scrape static path (fetch + whole pipeline, Markdown) | ${rate(totals.webcap)} | ≥ ${PAGES_PER_SECOND_TARGET} pages per CPU-second on one core | ${met ? 'yes' : 'NO'} |`,
    `| fetch + Readability alone (text) | ${rate(totals.readability)} | | |`,
  ].join('\n');
}
