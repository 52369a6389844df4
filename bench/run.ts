// npm run bench: webcap (host → JSON-RPC → sidecar → Chromium) against the
// same operation done with raw Playwright in-process, side by side in one run.
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { createHost, type Host } from '../host/host.js';
import { findChromium, launchArgs } from '../sidecar/browser/find-chromium.js';
import { serve } from '../tests/helpers/fixture-server.js';
import { shopRoutes } from '../tests/fixtures/shop-site.js';
import { bareSidecar } from './bare-sidecar.js';
import { daemonRows } from './cli-daemon.js';
import { governanceRows } from './governance.js';
import { scrapeBench } from './scrape.js';
import { agentLoopBench, loopTable } from './agent-loop.js';
import { qualityBench } from './scrape-quality.js';
import { snapshotBench } from './snapshot.js';
import { storeRows } from './store.js';
import { economyTable, snapshotEconomy } from './snapshot-economy.js';
import { median, sideBySide, table, timed, type Row } from './stats.js';

const N = Number(process.env.BENCH_N ?? 100);
const site = await serve(shopRoutes);
const resolve = { 'shop.test': '127.0.0.1' };
const url = (p: string) => site.url('shop.test', p);
const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-'));
const config = {
  capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
  network: { resolve, allow_private: ['127.0.0.1'] },
  chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'webcap.log') },
};
const exe = (await findChromium())!.path;
const launchRaw = () => chromium.launch({ executablePath: exe, args: launchArgs(resolve) });
const rows: Row[] = [];
const row = (name: string, w: number[], r: number[], maxRatio: number, maxAddedMs?: number) => {
  const webcap = median(w);
  const raw = median(r);
  const pass = webcap / raw <= maxRatio || (maxAddedMs !== undefined && webcap - raw <= maxAddedMs);
  rows.push({ name, webcap, raw, pass, target: `ratio ≤ ${maxRatio}${maxAddedMs !== undefined ? ` or ≤ ${maxAddedMs} ms added` : ''}` });
};

// Cold start: createHost + first web.open, against raw launch + goto. The
// note gives the part raw Playwright never pays here (it is loaded in this
// process already): a new sidecar process answering its first call, no browser.
{
  const w: number[] = [];
  const r: number[] = [];
  const sidecarAlone: number[] = [];
  for (let i = 0; i < 5; i++) {
    const bare = bareSidecar(config);
    sidecarAlone.push(await timed(() => bare.invoke('web.status', {}, 30_000, 'bench')));
    await bare.close();
    let host: Host | undefined;
    w.push(await timed(async () => { host = createHost({ config }); await host.call('web.open', { url: url('/') }); }));
    await host!.close();
    let browser: Browser | undefined;
    r.push(await timed(async () => { browser = await launchRaw(); const p = await (await browser.newContext()).newPage(); await p.goto(url('/')); }));
    await browser!.close();
  }
  row('cold start (createHost + web.open vs launch + goto)', w, r, 1.3);
  rows.at(-1)!.note = `sidecar process alone (Node + Playwright + first call, no browser): ${median(sidecarAlone).toFixed(0)} ms; the target leaves ${(0.3 * median(r)).toFixed(0)} ms for all webcap adds`;
}

const host = createHost({ config });
const browser = await launchRaw();
const page: Page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
await host.call('web.open', { url: url('/') });
await page.goto(url('/'));

let s = await sideBySide(N, () => host.call('web.click', { selector: '#buy' }), () => page.click('#buy'));
row('web.click', s.a, s.b, 1.3, 1);
s = await sideBySide(N, () => host.call('web.fill', { selector: '#q', text: 'hello' }), async () => { await page.fill('#q', 'hello'); await page.inputValue('#q'); });
row('web.fill (with read-back)', s.a, s.b, 1.3, 1);

await host.call('web.navigate', { url: url('/list') });
await page.goto(url('/list'));
const schema = { name: '.name', price: '.price', link: 'a[href]' };
s = await sideBySide(Math.max(10, N / 5), () => host.call('web.extract', { selector: '.item', schema }), () => page.$$eval('.item', (els) => els.map((e) => ({
  name: e.querySelector('.name')?.textContent?.trim() ?? null,
  price: e.querySelector('.price')?.textContent?.trim() ?? null,
  link: (e.querySelector('a[href]') as HTMLAnchorElement | null)?.href ?? null,
}))));
row('web.extract 1,000 items vs $$eval', s.a, s.b, 1.5);

await host.call('web.navigate', { url: url('/') });
await page.goto(url('/'));
s = await sideBySide(Math.max(10, N / 5), () => host.call('web.screenshot', { path: 'bench.png' }), async () => writeFile(join(dir, 'raw.png'), await page.screenshot()));
row('web.screenshot (viewport 1920x1080, png)', s.a, s.b, 1.3);

rows.push(...await governanceRows(config, url('/'), N));
rows.push(...await storeRows(N));
rows.push(...await daemonRows(url, resolve, page, N));
const snapshots = await snapshotBench(host, page, Math.max(10, N / 5));
rows.push(...snapshots.rows);
const scraping = await scrapeBench(Math.max(5, N / 10));
rows.push(...scraping.rows);
await host.call('web.open', { url: url('/') });
const economy = economyTable(await snapshotEconomy(host, undefined, 'shop.test'));

await host.close();
await browser.close();
await site.close();
process.stdout.write(`webcap bench, N=${N} per action (medians; both sides interleaved in this run)\n\n${table(rows)}\n`);
process.stdout.write(`\nweb.snapshot size against the page's HTML (rendered DOM)\n\n${snapshots.report}\n`);
process.stdout.write(`\nSnapshot economy on saved real-world pages (bench/corpus; node dist/bench/snapshot-economy-run.js alone)\n\n${economy}\n`);
const loop = await agentLoopBench(Math.max(10, Math.min(30, N / 3)));
process.stdout.write(`\nThe agent loop over each tool's agent interface (node dist/bench/agent-loop.js alone)\n\n${loopTable(loop.rows, loop.cold)}\n`);
process.stdout.write(`\nweb.scrape: Readability + text + Markdown on linkedom vs on jsdom (same pages, same run)\n\n${scraping.report}\n`);
process.stdout.write(`\nweb.scrape quality and throughput, default path (plain HTTP, no browser), bench/corpus\n\n${qualityBench(Math.max(5, N / 10))}\n`);
