// What the console costs and how fast it answers, measured in one run:
// (1) a governed web.click with a console served (no viewer connected) vs a
// host with none, side by side; (2) from a person's click on Approve in the
// console (a real browser) to the POST arriving at the fixture server.
// (3) the live view: frames/s a viewer receives and the CPU it costs
// (console-screencast.ts). Each table says the machine's load average.
// Run: npm run build && node dist/bench/console.js [N] [K] [SECONDS]
// (N, K or SECONDS = 0 leaves that part out: `node dist/bench/console.js 0 0 8` measures the live view only.)
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { createHost } from '../host/host.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { median, percentile, sideBySide } from './stats.js';
import { liveWindow, screencastBench } from './console-screencast.js';

const N = Number(process.argv[2] ?? 40);
const K = Number(process.argv[3] ?? 10);
const SECONDS = Number(process.argv[4] ?? 10);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');
let arrivedAt = 0;   // Date.now(): the console page's click event is timed on the same clock
const site = await serve({
  '/': (_q, res) => send(res, html('<h1>Bench</h1><button id="b" type="button" onclick="this.dataset.n = (+this.dataset.n || 0) + 1">b</button>')),
  '/form': (_q, res) => send(res, html('<h1>Form</h1><form method="post" action="/sink"><input type="hidden" name="x" value="1"><button id="go" type="submit">Send</button></form>')),
  '/moving': (_q, res) => send(res, html('<h1>Moving</h1><div id="m">live</div>', '<style>#m{width:300px;height:200px;background:#c33;color:#fff;animation:move 1s linear infinite alternate}@keyframes move{from{transform:translateX(0)}to{transform:translateX(800px)}}</style>')),
  // A page that does not change once shown (text, as most pages are between actions).
  '/still': (_q, res) => send(res, html(`<h1>Still</h1>${'<p>Text that stays as it is. '.repeat(60)}</p>`)),
  '/sink': (req, res) => { arrivedAt = Date.now(); req.resume(); send(res, html('<h1>Received</h1>')); },
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
if (SECONDS > 0) try {
  // First, before the person's browser exists: the CPU measured is the host's, the sidecar's and its Chromium's only.
  const { url: liveUrl } = await watched.console();
  const { session } = await watched.call('web.open', { url: site.url('bench.test', '/moving') });
  const { idle, watched: w } = await screencastBench(liveUrl, String(session), SECONDS);
  await watched.call('web.navigate', { url: site.url('bench.test', '/still') });
  const stillIdle = await liveWindow(liveUrl, String(session), SECONDS, false);
  const still = await liveWindow(liveUrl, String(session), SECONDS, true);
  const pct = (core: number) => `${(core * 100).toFixed(0)}%`;
  console.log(`| live view, 1280x720 (${SECONDS} s windows; load average ${load()}) | frames/s received | CPU (host + sidecar + Chromium), share of one core | over the page's own cost |\n|---|---|---|---|`);
  console.log(`| animated page, no viewer (the page's own cost) | 0 | ${pct(idle.core)} | |`);
  console.log(`| animated page, one viewer | ${w.fps.toFixed(1)} | ${pct(w.core)} | +${((w.core - idle.core) * 100).toFixed(0)} points |`);
  console.log(`| still page, no viewer | 0 | ${pct(stillIdle.core)} | |`);
  console.log(`| still page, one viewer | ${still.fps.toFixed(1)} | ${pct(still.core)} | +${((still.core - stillIdle.core) * 100).toFixed(0)} points |\n`);
  console.log('| where the CPU goes, animated page (share of one core) | no viewer | one viewer |\n|---|---|---|');
  for (const role of [...new Set([...idle.roles.keys(), ...w.roles.keys()])].sort()) {
    const share = (m: Map<string, number>) => `${((m.get(role) ?? 0) * 100).toFixed(1)}%`;
    if ((w.roles.get(role) ?? 0) + (idle.roles.get(role) ?? 0) >= 0.001) console.log(`| ${role} | ${share(idle.roles)} | ${share(w.roles)} |`);
  }
  console.log('');
} finally {
  await watched.close();
}
if (K > 0) person = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  if (N > 0) await clickWithAndWithout();
  if (K > 0) await approveToRequest();
} finally {
  await person?.close();
  await Promise.all([on.close(), off.close(), asking.close()]);
  await site.close();
}

async function clickWithAndWithout(): Promise<void> {
  await on.console();
  for (const h of [on, off]) await h.call('web.open', { url: site.url('bench.test', '/') });
  const s = await sideBySide(N, () => on.call('web.click', { selector: '#b' }), () => off.call('web.click', { selector: '#b' }));
  const a = median(s.a);
  const b = median(s.b);
  console.log(`| governed web.click (median of ${N} pairs; load average ${load()}) | console served, no viewer | no console | ratio |\n|---|---|---|---|`);
  console.log(`| web.click (button, no request) | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(a / b).toFixed(2)} |\n`);
}

async function approveToRequest(): Promise<void> {
  const { url } = await asking.console();
  hushWaiting();
  const page = await person!.newPage();
  await page.goto(url);
  // The moment the person's click reaches the Approve button (the page's click event), on the same clock as the server's.
  await page.evaluate(() => document.addEventListener('click', (e) => {
    if ((e.target as Element).closest('button.approve')) (window as unknown as { clickedAt: number }).clickedAt = Date.now();
  }, true));
  // The same submit clicked by bare Playwright in a browser of its own, no host: the floor, interleaved with the runs.
  const raw = await person!.newPage();
  const fromEvent: number[] = [];
  const fromCall: number[] = [];
  const bare: number[] = [];
  await asking.call('web.open', { url: site.url('bench.test', '/form') });
  for (let i = 0; i < K; i++) {
    if (i > 0) await asking.call('web.navigate', { url: site.url('bench.test', '/form') });
    const click = asking.call('web.click', { selector: '#go' });
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await approve.waitFor();
    arrivedAt = 0;
    const calledAt = Date.now();
    await approve.click();
    await click;
    fromCall.push(arrivedAt - calledAt);
    fromEvent.push(arrivedAt - await page.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt));

    await raw.goto(site.url('127.0.0.1', '/form'));
    arrivedAt = 0;
    const bareAt = Date.now();
    await raw.locator('#go').click();
    while (!arrivedAt) await new Promise((r) => setTimeout(r, 1));
    bare.push(arrivedAt - bareAt);
  }
  const row = (name: string, lags: number[]) => `| ${name} | ${median(lags).toFixed(0)} ms | ${percentile(lags, 90).toFixed(0)} ms | ${Math.max(...lags).toFixed(0)} ms |`;
  console.log(`| Approve → POST at the server (${K} runs; load average ${load()}) | median | p90 | max |\n|---|---|---|---|`);
  console.log(row('from the click event on Approve in the console page', fromEvent));
  console.log(row('from the bench\'s locator.click() on Approve (adds Playwright\'s own checks in the person\'s browser)', fromCall));
  console.log(row('bare Playwright: locator.click() on the same submit, no host (same run)', bare));
  console.log(`\nratio, median from the click event ÷ bare Playwright click: ${(median(fromEvent) / median(bare)).toFixed(2)}`);
}

/** The "a question waits" line on stderr is for people; the bench keeps its output to the tables. */
function hushWaiting(): void {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (String(chunk).startsWith('webcap: a question waits') ? true : write(chunk, ...rest))) as typeof process.stderr.write;
}
