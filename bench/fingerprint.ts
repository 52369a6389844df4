// What the fingerprint adds to every element action: the one
// page.evaluate that reads it, against the click it rides on, interleaved in
// one run, on a small form and on a large page (the heading walk is bounded).
// Run: npm run build && node dist/bench/fingerprint.js   (BENCH_N=200 for more samples)
import { chromium } from 'playwright';
import { fingerprintOf } from '../sidecar/fingerprint.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { median } from './stats.js';

const N = Number(process.env.BENCH_N ?? 100);
const small = '<main><h1>Form</h1><label for="n">Name</label><input id="n"><button id="go" onclick="void 0">Send</button></main>';
const big = `<main><h1>Catalogue</h1>${Array.from({ length: 3000 }, (_, i) => `<div class="c"><span>Item ${i}</span><a href="#${i}">open</a></div>`).join('')}<button id="go">Send</button></main>`;

const browser = await chromium.launch({ executablePath: (await findChromium())!.path });
const page = await browser.newPage();
for (const [name, body] of [['small form', small], ['3,000-item page', big]] as const) {
  await page.setContent(body);
  const target = page.locator('#go').first();
  const clicks: number[] = [];
  const prints: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < N + 10; i++) {
    let t = performance.now();
    await target.click();
    const c = performance.now() - t;
    t = performance.now();
    await fingerprintOf(target);          // as web.click does it: read first, then click
    await target.click();
    const f = performance.now() - t;
    t = performance.now();
    await target.evaluate((el) => el.tagName);
    const b = performance.now() - t;
    if (i >= 10) { clicks.push(c); prints.push(f); bare.push(b); }   // the first ten warm up
  }
  const [c, f, b] = [median(clicks), median(prints), median(bare)];
  process.stdout.write(`${name}: click ${c.toFixed(2)} ms, click with fingerprint ${f.toFixed(2)} ms (${(f / c).toFixed(2)}×, ${(f - c).toFixed(2)} ms added); one empty evaluate on the element ${b.toFixed(2)} ms (medians of ${N})\n`);
}
await browser.close();
