// What the secrets guard (data-loss prevention at the network guard) costs a
// request with a 100 kB body, measured two ways in one run:
//  1. the check alone: SecretBook.leakIn over the URL, headers and a 100 kB
//     body with 3 secrets known (every form of each looked for), vs no check;
//  2. in the browser: a page POSTs 100 kB with fetch to an allowlisted origin
//     none of the secrets is bound to (so the whole body is searched), timed
//     by the page, with [secrets] dlp on and off; both hosts typed the same
//     secret by reference first, so both sidecars know it.
// Run: npm run build && node dist/bench/secrets-dlp.js [N]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../host/host.js';
import { setSecret } from '../host/secrets/vault.js';
import { SecretBook } from '../sidecar/secrets/book.js';
import { leakInProxied } from '../sidecar/secrets/dlp.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { median, percentile } from './stats.js';

const N = Number(process.argv[2] ?? 30);
const BODY = 100 * 1024;

// 1. The check alone.
const book = new SecretBook();
book.remember({ kind: 'secret', name: 'a' }, 'c0rrect horse@Batt3ry', ['https://bank.example']);
book.remember({ kind: 'secret', name: 'b' }, 'Tr0ub4dor&3', ['https://bank.example']);
book.remember({ kind: 'totp', name: 'c' }, '492039', ['https://bank.example']);
const body = Buffer.from('x'.repeat(BODY).replace(/x{64}/g, () => `${Math.random().toString(36).slice(2)}&q=`).slice(0, BODY));
const headers = { host: 'evil.example', 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'bench', cookie: 'sid=abc' };
const check: number[] = [];
for (let i = 0; i < 200 + N * 10; i++) {
  const t = process.hrtime.bigint();
  const leak = leakInProxied(book, 'https://evil.example/upload?x=1', headers, body);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (leak) throw new Error('bench body must not carry a secret');
  if (i >= 200) check.push(ms);
}

// 2. In the browser.
const site = await serve({
  '/': (_q, res) => send(res, html('<h1>Bench</h1><input id="pw" type="password">')),
  '/upload': (req, res) => { req.resume(); req.on('end', () => send(res, 'ok', 200, 'text/plain')); },
});
const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-dlp-'));
const KEY_ENV = 'WEBCAP_BENCH_DLP_KEY';
process.env[KEY_ENV] = 'e'.repeat(64);
const vault = { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true };
setSecret({ secrets: vault }, { name: 'pw', kind: 'secret', origins: [site.url('bank.test', '')], value: 'c0rrect horse@Batt3ry' });
const config = (dlp: boolean) => {
  const d = mkdtempSync(join(dir, dlp ? 'on-' : 'off-'));
  return {
    capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 100_000, evaluate_enabled: true } },
    network: { resolve: { 'bank.test': '127.0.0.1', 'other.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
    consent: { non_interactive: 'approve', gate_requests: false },
    secrets: { ...vault, dlp },
    chain: { path: join(d, 'chain.jsonl') }, workspace: { path: d }, logging: { level: 'warn', file: join(d, 'log') },
  };
};
const on = createHost({ config: config(true) });
const off = createHost({ config: config(false) });
const upload = site.url('other.test', '/upload');
const post = `async () => { const body = 'x'.repeat(${BODY}); const t = performance.now(); await fetch(${JSON.stringify(upload)}, { method: 'POST', body, mode: 'no-cors' }); return performance.now() - t; }`;
const page = { on: [] as number[], off: [] as number[] };
try {
  for (const h of [on, off]) {
    await h.call('web.open', { url: site.url('bank.test', '/') });
    await h.call('web.fill', { selector: '#pw', text: '{{secret:pw}}' });
  }
  for (let i = 0; i < N + 3; i++) {
    for (const [name, h] of (i % 2 ? [['on', on], ['off', off]] : [['off', off], ['on', on]]) as Array<['on' | 'off', typeof on]>) {
      const ms = (await h.call('web.evaluate', { expression: post })).result as number;
      if (i >= 3) page[name].push(ms);
    }
  }
} finally {
  await on.close();
  await off.close();
  await site.close();
}

const fmt = (n: number) => `${n.toFixed(3)} ms`;
console.log(`| measurement (${BODY / 1024} kB body) | guard on | guard off | added |\n|---|---|---|---|`);
console.log(`| the check alone (median of ${check.length}; p95 ${fmt(percentile(check, 95))}) | ${fmt(median(check))} | 0 ms (no check) | +${fmt(median(check))} |`);
const a = median(page.on);
const b = median(page.off);
console.log(`| fetch POST from the page, timed in the page (median of ${N} pairs) | ${fmt(a)} | ${fmt(b)} | ${a - b >= 0 ? '+' : ''}${fmt(a - b)} |`);
