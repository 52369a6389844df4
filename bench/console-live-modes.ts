// Why the live view takes screenshots while a page animates: Chromium alone
// (webcap's launch flags, no host), one page with an animation at 1280x720,
// three windows of W seconds in one run: no capture; CDP's screencast with
// frames acknowledged no faster than 6 a second (the old live view); and
// Page.captureScreenshot 6 times a second (what the live view does on such a
// page). CPU of this process and its Chromium, by process, as a share of one core.
// Run: npm run build && node dist/bench/console-live-modes.js [SECONDS]
import { loadavg } from 'node:os';
import { chromium } from 'playwright';
import { launchArgs } from '../sidecar/browser/find-chromium.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { treeCpuByRole } from './console-screencast.js';

const SECONDS = Number(process.argv[2] ?? 8);
const GAP_MS = 166;
const site = await serve({
  '/moving': (_q, res) => send(res, html('<h1>Moving</h1><div id="m">live</div>', '<style>#m{width:300px;height:200px;background:#c33;color:#fff;animation:move 1s linear infinite alternate}@keyframes move{from{transform:translateX(0)}to{transform:translateX(800px)}}</style>')),
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs({}) });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(site.url('127.0.0.1', '/moving'));
await new Promise((r) => setTimeout(r, 1000));   // past the load's own work
const cdp = await page.context().newCDPSession(page);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function window(run: (count: () => void, until: number) => Promise<void>) {
  const before = treeCpuByRole();
  const t0 = performance.now();
  let frames = 0;
  await run(() => { frames++; }, Date.now() + SECONDS * 1000);
  const wall = (performance.now() - t0) / 1000;
  const after = treeCpuByRole();
  const roles = new Map([...after].map(([role, s]) => [role, Math.max(0, s - (before.get(role) ?? 0)) / wall]));
  return { fps: frames / wall, core: [...roles.values()].reduce((a, b) => a + b, 0), roles };
}

const idle = await window(async (_count, until) => { await sleep(until - Date.now()); });
const cast = await window(async (count, until) => {
  let last = 0;
  const onFrame = (f: { sessionId: number }) => {
    count();
    const wait = Math.max(0, last + GAP_MS - Date.now());
    last = Date.now() + wait;
    setTimeout(() => void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined), wait);
  };
  cdp.on('Page.screencastFrame', onFrame);
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: 1280, maxHeight: 720, everyNthFrame: 1 });
  await sleep(until - Date.now());
  await cdp.send('Page.stopScreencast');
  cdp.off('Page.screencastFrame', onFrame);
});
const shots = await window(async (count, until) => {
  while (Date.now() < until) {
    const began = Date.now();
    await cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 60, optimizeForSpeed: true });
    count();
    await sleep(Math.max(0, began + GAP_MS - Date.now()));
  }
});
await browser.close();
await site.close();

const roles = [...new Set([...idle.roles.keys(), ...cast.roles.keys(), ...shots.roles.keys()])].sort();
const pct = (x = 0) => `${(x * 100).toFixed(1)}%`;
console.log(`| Chromium alone, animated page 1280x720 (${SECONDS} s windows; load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')}) | no capture | screencast, acked at ≤ 6/s | screenshots, 6/s |\n|---|---|---|---|`);
console.log(`| frames/s | 0 | ${cast.fps.toFixed(1)} | ${shots.fps.toFixed(1)} |`);
for (const role of roles) if ((idle.roles.get(role) ?? 0) + (cast.roles.get(role) ?? 0) + (shots.roles.get(role) ?? 0) >= 0.001) console.log(`| ${role === 'host' ? 'this process (Playwright)' : role} | ${pct(idle.roles.get(role))} | ${pct(cast.roles.get(role))} | ${pct(shots.roles.get(role))} |`);
console.log(`| all | ${pct(idle.core)} | ${pct(cast.core)} | ${pct(shots.core)} |`);
console.log(`\nover no capture: screencast +${((cast.core - idle.core) * 100).toFixed(0)} points, screenshots +${((shots.core - idle.core) * 100).toFixed(0)} points (ratio ${((shots.core - idle.core) / (cast.core - idle.core)).toFixed(2)})`);
