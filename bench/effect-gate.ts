// What the checks at the effect cost a call, measured side by side in one
// run: web.click on a button that sends nothing and web.keypress of 8
// characters into a text field, web.navigate to a page and to a URL that
// redirects once (the hop is paused by the page's CDP watch and checked
// against robots.txt: redirect-hops.ts), with the effect gate on (gate_requests and
// robots; an input action waits INPUT_GRACE_MS for what its handlers send)
// and off. The per-key look at the focused field (typing-guard.ts) has no
// switch, so it runs on both sides. First, the gate alone: what EffectGate
// (begin → end with the ordered flush on the page's own CDP session) costs an
// action that sends nothing, in-process on a real page, against a bare CDP
// round trip on the same session. Run: npm run build && node
// dist/bench/effect-gate.js [N]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { chromium } from 'playwright';
import { createHost } from '../host/host.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { EffectGate } from '../sidecar/guard/effect-gate.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { median, sideBySide } from './stats.js';

const N = Number(process.argv[2] ?? 40);
const site = await serve({
  '/robots.txt': (_q, res) => send(res, 'User-agent: *\nAllow: /\n', 200, 'text/plain'),
  '/hop': (_q, res) => { res.writeHead(302, { location: '/' }).end(); },
  '/': (_q, res) => send(res, html('<h1>Bench</h1><button id="b" type="button" onclick="this.dataset.n = (+this.dataset.n || 0) + 1">b</button><input id="t" aria-label="t">')),
});
const config = (on: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-effect-'));
  return {
    capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: on, max_actions_per_minute: 100_000 } },
    network: { resolve: { 'bench.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
    consent: { non_interactive: 'approve', gate_requests: on },
    chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'log') },
  };
};
// The gate alone, on a page that sends nothing: begin(), the action (none), end() with the same ordered flush
// the sidecar uses (sidecar/guard/redirect-hops.ts: Runtime.evaluate of a zero-delay timer on the watch's session).
{
  const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  await page.goto(site.url('127.0.0.1', '/'));
  const cdp = await page.context().newCDPSession(page);
  const flush = () => cdp.send('Runtime.evaluate', { expression: 'new Promise((r) => setTimeout(r, 0))', awaitPromise: true });
  const gate = new EffectGate({ gateRequests: true, robots: true, ask: { consent: async () => ({ approved: true }), robots: async () => ({ allowed: true, reason: 'bench' }) } });
  const s = await sideBySide(N * 5, async () => { const w = gate.begin('web.click', 's1'); await gate.end(w, flush, true); }, () => cdp.send('Runtime.evaluate', { expression: '1' }));
  console.log(`load average ${loadavg()[0].toFixed(1)}\n| the gate alone, action sends nothing (median of ${N * 5}) | EffectGate begin → end (ordered flush) | one bare CDP round trip | added |\n|---|---|---|---|`);
  console.log(`| in-process, real page | ${median(s.a).toFixed(2)} ms | ${median(s.b).toFixed(2)} ms | +${(median(s.a) - median(s.b)).toFixed(2)} ms |\n`);
  await browser.close();
}
const on = createHost({ config: config(true) });
const off = createHost({ config: config(false) });
try {
  for (const h of [on, off]) await h.call('web.open', { url: site.url('bench.test', '/') });
  const rows: string[] = [];
  const calls = [
    ['web.click (button, no request)', { selector: '#b' }, 'web.click'],
    ['web.keypress (8 keys, text field)', { selector: '#t', keys: [...'abcdefgh'] }, 'web.keypress'],
    ['web.navigate (no redirect)', { url: site.url('bench.test', '/') }, 'web.navigate'],
    ['web.navigate (one redirect hop)', { url: site.url('bench.test', '/hop') }, 'web.navigate'],
  ] as const;
  for (const [name, params, id] of calls) {
    const s = await sideBySide(N, () => on.call(id, params), () => off.call(id, params));
    const a = median(s.a);
    const b = median(s.b);
    rows.push(`| ${name} | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(a / b).toFixed(2)} | +${(a - b).toFixed(1)} ms |`);
  }
  console.log('| call (median of', N, 'pairs) | effect gate on | off | ratio | added |\n|---|---|---|---|---|');
  console.log(rows.join('\n'));
} finally {
  await on.close();
  await off.close();
  await site.close();
}
