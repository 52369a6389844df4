// What metrics and principals cost per call (npm run build && BENCH_N=1000 node dist/bench/ops.js):
// the same web.extract on one host and one page, with metrics recorded and the
// call made as a [[mcp.clients]] principal (its own hour and day buckets and
// allowlist) versus metrics off and no principal.
//
// Made to hold on a shared machine: the two sides run in alternating batches
// in a rotating order, many of them, and each batch is read twice: its
// wall-clock time per call and this process's CPU time per call
// (process.cpuUsage: the host's own work, which is where metrics and principals
// run; the sidecar and Chromium are other processes). Each round also runs
// "off" twice, so the same code's difference from itself (the control) shows
// how much of the difference the machine makes. Reported: the median of the
// per-round differences for both readings, and the load average.
// The note adds the pieces alone, in microseconds.
import { mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableBuckets } from '../host/budget/buckets.js';
import { createHost } from '../host/host.js';
import { TokenTable } from '../host/mcp/http-auth.js';
import { metrics } from '../host/metrics/metrics.js';
import type { Principal } from '../host/policies/types.js';
import { shopRoutes } from '../tests/fixtures/shop-site.js';
import { serve } from '../tests/helpers/fixture-server.js';
import { median } from './stats.js';

const N = Number(process.env.BENCH_N ?? 400);
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
const rounds = Math.max(2, Math.ceil(N / BATCH));
const site = await serve(shopRoutes);
const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-ops-'));
const config = {
  capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
  network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'webcap.log') },
};
const principal: Principal = { name: 'bench-client', domains_allowlist: ['shop.test'], budgets: { per_capability_per_hour: { 'web.extract': 1_000_000_000 }, per_capability_per_day: { 'web.extract': 1_000_000_000 } } };
const host = createHost({ config });
const loadBefore = loadavg()[0];
let out = '';
try {
  await host.call('web.open', { url: site.url('shop.test', '/') });
  const params = { selector: 'h1' };
  const on = async () => { metrics.setEnabled(true); await host.call('web.extract', params, { principal }); };
  const off = async () => { metrics.setEnabled(false); await host.call('web.extract', params); };
  // Warm-up: both paths compiled and every bucket made before anything is timed.
  for (let i = 0; i < 20; i++) { await on(); await off(); }

  const batch = async (fn: () => Promise<void>) => {
    const cpu = process.cpuUsage();
    const t = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) await fn();
    const wallMs = Number(process.hrtime.bigint() - t) / 1e6 / BATCH;
    const used = process.cpuUsage(cpu);
    return { wallMs, cpuMs: (used.user + used.system) / 1000 / BATCH };
  };
  // Each round: on, off and off again (a control: what the same code differs from itself by, here and now), in a rotating order.
  const sides = { on: [] as Array<{ wallMs: number; cpuMs: number }>, off: [] as Array<{ wallMs: number; cpuMs: number }>, control: [] as Array<{ wallMs: number; cpuMs: number }> };
  const orders = [['on', 'off', 'control'], ['off', 'control', 'on'], ['control', 'on', 'off']] as const;
  for (let r = 0; r < rounds; r++) {
    for (const side of orders[r % 3]) sides[side].push(await batch(side === 'on' ? on : off));
  }
  const diff = (side: 'on' | 'control', key: 'wallMs' | 'cpuMs') => median(sides[side].map((s, i) => s[key] - sides.off[i][key]));
  const med = (side: keyof typeof sides, key: 'wallMs' | 'cpuMs') => median(sides[side].map((s) => s[key]));
  const wall = diff('on', 'wallMs');
  const cpu = diff('on', 'cpuMs');
  const loadAfter = loadavg()[0];
  out = [
    `webcap bench (operations): metrics + principal on vs off, web.extract h1, ${rounds} rounds of ${BATCH} calls per side (${rounds * BATCH} calls each)`,
    `load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} cores`,
    '',
    '| per call | on (median ms) | off (median ms) | added: on − off (median of round differences, ms) | control: off − off (ms) | target | met |',
    '|---|---|---|---|---|---|---|',
    `| wall clock | ${med('on', 'wallMs').toFixed(3)} | ${med('off', 'wallMs').toFixed(3)} | ${wall.toFixed(3)} | ${diff('control', 'wallMs').toFixed(3)} | ≤ 0.2 ms | ${verdict(wall, diff('control', 'wallMs'))} |`,
    `| host CPU time | ${med('on', 'cpuMs').toFixed(3)} | ${med('off', 'cpuMs').toFixed(3)} | ${cpu.toFixed(3)} | ${diff('control', 'cpuMs').toFixed(3)} | ≤ 0.2 ms | ${verdict(cpu, diff('control', 'cpuMs'))} |`,
    '',
    pieces(),
  ].join('\n');
} finally {
  await host.close();
  await site.close();
}
process.stdout.write(`${out}\n`);

/** A reading whose control moves by more than the target cannot say whether the target is met. */
function verdict(added: number, control: number): string {
  if (Math.abs(control) > 0.2) return `unresolved (the control moved ${control.toFixed(2)} ms)`;
  return added <= 0.2 ? 'yes' : 'NO';
}

/** CPU microseconds per call of each added piece, alone (100k iterations after a warm-up). */
function pieces(): string {
  const tokens = new TokenTable(Array.from({ length: 8 }, (_, i) => ({ name: `client${i}`, token: `token-${i}-${'x'.repeat(24)}` })));
  const req = { rawHeaders: ['Host', 'localhost', 'Authorization', `Bearer token-7-${'x'.repeat(24)}`, 'Content-Type', 'application/json'] };
  metrics.setEnabled(true);
  metrics.knowCapabilities(['web.extract']);
  // CPU time, not wall clock: on a loaded machine the wall clock mostly counts the waits for a core.
  const time = (fn: () => void) => { const n = 100_000; for (let i = 0; i < n / 10; i++) fn(); const c = process.cpuUsage(); for (let i = 0; i < n; i++) fn(); const u = process.cpuUsage(c); return (u.user + u.system) / n; };
  const auth = time(() => tokens.authenticate(req));
  const record = time(() => metrics.call('web.extract', undefined, 0.004));
  const buckets = time(() => tableBuckets(principal.budgets!, 'web.extract', 'shop.test', 'client:bench-client:'));
  return `CPU time alone: bearer check against 8 clients ${auth.toFixed(2)} µs (once per HTTP request), metrics record ${record.toFixed(2)} µs, principal buckets ${buckets.toFixed(2)} µs`;
}
