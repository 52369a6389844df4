// Round trips per action, counted instead of timed: the CDP commands each
// action sends to Chromium, raw Playwright's same action against the sidecar
// with every guarantee on (the effect gate, the typing guard, the look
// before acting), on the page and actions of action-layers.ts. A count does
// not move with the machine's load, so it tells a change that saves a round
// trip from noise; the timings are action-layers.ts's. Each action runs once
// to warm up, then once counted.
// Run: npx tsc -p tsconfig.json && node dist/bench/action-trips.js
import { loadavg } from 'node:os';

// Playwright's protocol log reads DEBUG when it loads: set before anything imports it (the sidecar inherits it).
process.env.DEBUG = 'pw:protocol';
const { mkdtempSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { default: pino } = await import('pino');
const { chromium } = await import('playwright');
const { loadConfig } = await import('../host/config/load.js');
const { SidecarClient } = await import('../host/sidecar-link/sidecar-client.js');
const { sidecarInit } = await import('../host/sidecar-link/sidecar-init.js');
const { findChromium } = await import('../sidecar/browser/find-chromium.js');
const { send, serve } = await import('../tests/helpers/fixture-server.js');
const { ACTIONS, PAGE, rawActions } = await import('./action-layers.js');

/** Counts the protocol log's sent commands while `fn` runs (Runtime.releaseObject apart: nothing waits for it). */
const sentIn = (lines: string[]) => ({
  all: lines.filter((l) => l.includes('SEND ►')).length,
  waited: lines.filter((l) => l.includes('SEND ►') && !l.includes('Runtime.releaseObject')).length,
});

const site = await serve({ '/form': (_q, res) => send(res, PAGE) });
const url = site.url('127.0.0.1', '/form');
const dir = mkdtempSync(join(tmpdir(), 'webcap-trips-'));
const config = {
  capabilities: { browser: { domains_allowlist: ['127.0.0.1'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
  network: { allow_private: ['127.0.0.1'] }, chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: join(dir, 'ws') },
};
// The sidecar's stderr reaches its client's logger at debug level: that is where its protocol log arrives.
const sidecarLines: string[] = [];
const log = pino({ level: 'debug' }, { write: (s: string) => { const o = JSON.parse(s) as { sidecar?: string }; if (o.sidecar) sidecarLines.push(...o.sidecar.split('\n')); } });
const sidecar = new SidecarClient(() => sidecarInit(loadConfig(config)), { onBlocked: () => undefined, onEvent: () => undefined, onSensitive: async () => ({ approved: false }) }, log);
const { session } = await sidecar.invoke('web.open', { url }, 30_000, 'bench') as { session: string };

const rawLines: string[] = [];
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array) => { rawLines.push(...String(chunk).split('\n')); return true; }) as typeof process.stderr.write;
const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox'] });
const page = await (await browser.newContext()).newPage();
await page.goto(url);
const raw = rawActions(page, url);
const settle = () => new Promise((r) => setTimeout(r, 300));   // late protocol lines of the previous action land first
const rows: string[] = [];
try {
  for (const [cap, fixed] of ACTIONS) {
    const params = cap === 'web.navigate' ? { url } : fixed;
    const counted: Array<{ all: number; waited: number }> = [];
    for (const [lines, act] of [[rawLines, raw[cap]], [sidecarLines, () => sidecar.invoke(cap, { ...params, session }, 30_000, 'bench')]] as const) {
      await act();
      await settle();
      lines.length = 0;
      await act();
      await settle();
      counted.push(sentIn(lines));
      // TRIPS_SHOW=web.navigate prints that action's protocol traffic, raw's and the sidecar's.
      if (process.env.TRIPS_SHOW === cap) stderrWrite(`--- ${cap}\n${lines.filter((l) => /SEND|RECV|◀/.test(l)).map((l) => l.slice(0, 220)).join('\n')}\n`);
    }
    const [r, s] = counted;
    rows.push(`| ${cap} | ${r.waited} (${r.all}) | ${s.waited} (${s.all}) | ${s.waited - r.waited >= 0 ? '+' : ''}${s.waited - r.waited} |`);
  }
} finally {
  await browser.close();
  await sidecar.close();
  await site.close();
  process.stderr.write = stderrWrite;
}
process.stdout.write(`load average ${loadavg()[0].toFixed(1)}\n| action | raw Playwright: CDP commands (with releaseObject) | sidecar, every guarantee on | added |\n|---|---:|---:|---:|\n${rows.join('\n')}\n`);
