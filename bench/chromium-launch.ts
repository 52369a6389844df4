// What a launch costs with each Chromium build installed here: launch, one page, close, five times
// each, interleaved; the CPU of this process and of the browsers it reaped, and the wall clock.
// Headless runs prefer Debian's chromium-headless-shell (sidecar/browser/find-chromium.ts); this is why.
// `npx tsc -p tsconfig.json && node dist/bench/chromium-launch.js`
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from 'playwright';
import { launchArgs } from '../sidecar/browser/find-chromium.js';

const BUILDS = ['/usr/bin/chromium', '/usr/lib/chromium/chromium-headless-shell'].filter((p) => existsSync(p));
const ROUNDS = Number(process.env.BENCH_N ?? 5);

function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
  return (utime + stime + cutime + cstime) / 100;
}

const totals = new Map(BUILDS.map((b) => [b, { cpu: 0, wall: 0 }]));
const before = loadavg()[0];
for (let i = 0; i < ROUNDS; i++) {
  for (const build of BUILDS) {
    const [cpu, wall] = [cpuSeconds(), performance.now()];
    const browser = await chromium.launch({ executablePath: build, args: launchArgs({}) });
    const page = await (await browser.newContext()).newPage();
    await page.goto('data:text/html,<h1>Hello</h1>');
    await browser.close();
    const t = totals.get(build)!;
    t.cpu += cpuSeconds() - cpu;
    t.wall += performance.now() - wall;
  }
}
process.stdout.write(`launch + one page + close, ${ROUNDS} rounds each, interleaved; load average ${before.toFixed(1)} → ${loadavg()[0].toFixed(1)}
| build | CPU s per launch | wall ms per launch |
|---|---:|---:|
${BUILDS.map((b) => `| ${b} | ${(totals.get(b)!.cpu / ROUNDS).toFixed(2)} | ${(totals.get(b)!.wall / ROUNDS).toFixed(0)} |`).join('\n')}
`);
