// What the console costs and how fast it answers, measured in one run:
// (1) a governed web.click with a console served (no viewer connected) vs a
// host with none, side by side; (2) from a person's click on Approve in the
// console (a real browser) to the POST arriving at the fixture server.
// (3) the live view: frames/s a viewer receives and the CPU it costs
// (console-screencast.ts). Each table says the machine's load average.
// Run: npm run build && node dist/bench/console.js [N] [K] [SECONDS]
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { createHost } from '../host/host.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { median, percentile, sideBySide } from './stats.js';
import { screencastBench } from './console-screencast.js';

const N = Number(process.argv[2] ?? 40);
const K = Number(process.argv[3] ?? 10);
const SECONDS = Number(process.argv[4] ?? 10);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');
let arrivedAt = 0;
const site = await serve({
  '/': (_q, res) => send(res, html('<h1>Bench</h1><button id="b" type="button" onclick="this.dataset.n = (+this.dataset.n || 0) + 1">b</button>')),
  '/form': (_q, res) => send(res, html('<h1>Form</h1><form method="post" action="/sink"><input type="hidden" name="x" value="1"><button id="go" type="submit">Send</button></form>')),
  '/moving': (_q, res) => send(res, html('<h1>Moving</h1><div id="m">live</div>', '<style>#m{width:300px;height:200px;background:#c33;color:#fff;animation:move 1s linear infinite alternate}@keyframes move{from{transform:translateX(0)}to{transform:translateX(800px)}}</style>')),
  '/sink': (req, res) => { arrivedAt = performance.now(); req.resume(); send(res, html('<h1>Received</h1>')); },
});
const config = (nonInteractive: 'approve' | 'deny') => {
  const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-console-'));
  return {
    capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 100_000, viewport_width: 1280, viewport_height: 720 } },
    network: { resolve: { 'bench.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
    consent: { non_interactive: nonInteractive },
    chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'log') },
  };
};

const on = createHost({ config: config('approve') });
const off = createHost({ config: config('approve') });
const asking = createHost({ config: config('deny') });
const watched = createHost({ config: config('approve') });
let person: Awaited<ReturnType<typeof chromium.launch>> | undefined;
try {
  // First, before the person's browser exists: the CPU measured is the host's, the sidecar's and its Chromium's only.
  const { url: liveUrl } = await watched.console();
  const { session } = await watched.call('web.open', { url: site.url('bench.test', '/moving') });
  const { idle, watched: w } = await screencastBench(watched, liveUrl, String(session), SECONDS);
  console.log(`| live view, 1280x720, animated page (${SECONDS} s windows; load average ${load()}) | frames/s received | CPU (host + sidecar + Chromium), share of one core |\n|---|---|---|`);
  console.log(`| no viewer (baseline) | 0 | ${(idle.core * 100).toFixed(0)}% |`);
  console.log(`| one viewer | ${w.fps.toFixed(1)} | ${(w.core * 100).toFixed(0)}% (+${((w.core - idle.core) * 100).toFixed(0)} points over the baseline) |\n`);
} finally {
  await watched.close();
}
person = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  await on.console();
  for (const h of [on, off]) await h.call('web.open', { url: site.url('bench.test', '/') });
  const s = await sideBySide(N, () => on.call('web.click', { selector: '#b' }), () => off.call('web.click', { selector: '#b' }));
  const a = median(s.a);
  const b = median(s.b);
  console.log(`| governed web.click (median of ${N} pairs; load average ${load()}) | console served, no viewer | no console | ratio |\n|---|---|---|---|`);
  console.log(`| web.click (button, no request) | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(a / b).toFixed(2)} |`);

  const { url } = await asking.console();
  hushWaiting();
  const page = await person.newPage();
  await page.goto(url);
  const lags: number[] = [];
  await asking.call('web.open', { url: site.url('bench.test', '/form') });
  for (let i = 0; i < K; i++) {
    if (i > 0) await asking.call('web.navigate', { url: site.url('bench.test', '/form') });
    const click = asking.call('web.click', { selector: '#go' });
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await approve.waitFor();
    arrivedAt = 0;
    const t0 = performance.now();
    await approve.click();
    await click;
    lags.push(arrivedAt - t0);
  }
  console.log(`\n| Approve click → POST at the server (${K} runs; load average ${load()}) | median | p90 | max |\n|---|---|---|---|`);
  console.log(`| console, real browser | ${median(lags).toFixed(0)} ms | ${percentile(lags, 90).toFixed(0)} ms | ${Math.max(...lags).toFixed(0)} ms |`);
} finally {
  await person?.close();
  await Promise.all([on.close(), off.close(), asking.close()]);
  await site.close();
}

/** The "a question waits" line on stderr is for people; the bench keeps its output to the tables. */
function hushWaiting(): void {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (String(chunk).startsWith('webcap: a question waits') ? true : write(chunk, ...rest))) as typeof process.stderr.write;
}
