// Why the effect gate costs an input action more than its own round trip: the
// gate waits for a zero-delay timer in the page (the handlers' own zero-delay
// timers run first), and right after a mouse click Chromium's scheduler runs
// its next frame before any task. Measured here on a second CDP session (as
// the page's watch has), after nothing, after a key press and after a click:
// a zero-delay timer, a MessageChannel message, scheduler.postTask at two
// priorities, and a bare Runtime.evaluate (which answers without waiting for
// any task, so it cannot say the handlers' timers ran). Twice: Chromium's
// defaults, then with DeferRendererTasksAfterInput off (as the sidecar launches
// it: sidecar/browser/find-chromium.ts), which holds timers and posted messages
// after an input until the next frame.
// Run: npx tsc -p tsconfig.json && node dist/bench/flush-after-input.js [N]
import { loadavg } from 'node:os';
import { chromium } from 'playwright';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { median } from './stats.js';

const N = Number(process.argv[2] ?? 30);
for (const [label, extra] of [['Chromium defaults', []], ['DeferRendererTasksAfterInput off', ['--disable-features=DeferRendererTasksAfterInput']]] as const) {
const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox', ...extra] });
try {
  const page = await browser.newPage();
  await page.setContent(`<input id="t" aria-label="t"><button id="go" type="button" onclick="document.getElementById('st').textContent = 'x' + Date.now()">Go</button><p id="st">idle</p>`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  await page.focus('#t');
  const evaluate = (expression: string) => () => cdp.send('Runtime.evaluate', { expression, awaitPromise: true });
  const flushes: Array<[string, () => Promise<unknown>]> = [
    ['zero-delay timer (the gate\'s flush)', evaluate('new Promise((r) => setTimeout(r, 0))')],
    ['MessageChannel message', evaluate('new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(1); c.port2.postMessage(0); })')],
    ['scheduler.postTask user-blocking', evaluate('scheduler.postTask(() => 1, { priority: "user-blocking" })')],
    ['scheduler.postTask user-visible', evaluate('scheduler.postTask(() => 1, { priority: "user-visible" })')],
    ['bare Runtime.evaluate (no task)', evaluate('1')],
  ];
  const inputs: Array<[string, () => Promise<unknown>]> = [
    // The click leaves focus on the button: the keys focus the field first (untimed), so they type into it.
    ['nothing', async () => undefined],
    ['a key press', async () => { await page.focus('#t'); await page.keyboard.press('a'); }],
    ['four typed keys', async () => { await page.focus('#t'); await page.keyboard.type('Lyon'); }],
    ['a click', () => page.click('#go')],
  ];
  const samples = new Map<string, number[]>();
  for (let i = 0; i < N; i++) {
    for (const [f, flush] of flushes) {
      for (const [what, input] of inputs) {
        await new Promise((r) => setTimeout(r, Math.random() * 17));   // spread the phase against the 60 Hz frame clock
        await input();
        const t = performance.now();
        await flush();
        samples.set(`${f}|${what}`, [...(samples.get(`${f}|${what}`) ?? []), performance.now() - t]);
      }
    }
  }
  const rows = flushes.map(([f]) => `| ${f} | ${inputs.map(([what]) => median(samples.get(`${f}|${what}`)!).toFixed(2)).join(' | ')} |`);
  process.stdout.write(`${label}: load average ${loadavg()[0].toFixed(1)}, median of ${N}\n| round trip on a second CDP session, ms | ${inputs.map(([what]) => `after ${what}`).join(' | ')} |\n|---|${inputs.map(() => '---:').join('|')}|\n${rows.join('\n')}\n`);
} finally {
  await browser.close();
}
}
