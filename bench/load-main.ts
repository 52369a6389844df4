// `npm run bench:load -- [--plans 48] [--parallel 6] [--slots 3] [--baseline 6] [--kill chromium|sidecar] [--kill-after K] [--timeout-ms 30000] [--memory]`
// --memory: only the growth check (idle memory after the first 6 plans vs after all of them).
// Prints plans returned in full, crossed and failed (by code), p50/p95 per
// plan, plans per minute (and the ratio to one at a time), peak resident
// memory of host + sidecar + Chromium, and whether the chain verifies.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { idleMemory, runLoad, withChainVerdict, type PassReport } from './load.js';

const { values } = parseArgs({ options: {
  plans: { type: 'string', default: '48' }, parallel: { type: 'string', default: '6' }, slots: { type: 'string', default: '3' },
  baseline: { type: 'string', default: '6' }, kill: { type: 'string' }, 'kill-after': { type: 'string' }, 'timeout-ms': { type: 'string', default: '30000' },
  memory: { type: 'boolean', default: false },
} });
if (values.memory) {
  const dir = mkdtempSync(join(tmpdir(), 'webcap-load-mem-'));
  const m = await idleMemory({ plans: Number(values.plans), parallel: Number(values.parallel), slots: Number(values.slots), baseline: 0, dir, timeoutMs: Number(values['timeout-ms']), first: 6 });
  const growth = (m.afterAll.rss / m.afterFirst.rss - 1) * 100;
  process.stdout.write(`idle memory of host + sidecar + Chromium (one session open): after 6 plans ${m.afterFirst.rss} MB RSS / ${m.afterFirst.pss} MB Pss; after ${values.plans}: ${m.afterAll.rss} MB RSS / ${m.afterAll.pss} MB Pss (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}% RSS); plans not in full: ${m.failed}\n`);
  process.exit(0);
}
const kill = values.kill as 'chromium' | 'sidecar' | undefined;
if (kill && kill !== 'chromium' && kill !== 'sidecar') throw new Error('--kill takes chromium or sidecar');
const dir = mkdtempSync(join(tmpdir(), 'webcap-load-'));
const report = withChainVerdict(await runLoad({
  plans: Number(values.plans), parallel: Number(values.parallel), slots: Number(values.slots), baseline: Number(values.baseline), dir, timeoutMs: Number(values['timeout-ms']),
  ...(kill ? { kill } : {}), ...(values['kill-after'] ? { killAfter: Number(values['kill-after']) } : {}),
}), dir);

const line = (label: string, p: PassReport) => `${label.padEnd(16)} ${String(p.plans).padStart(3)} plans, ${p.parallel} at once: ${p.full} in full, ${p.crossed} crossed, ${p.short} short, errors ${JSON.stringify(p.errors)}; p50 ${(p.p50Ms / 1000).toFixed(2)} s, p95 ${(p.p95Ms / 1000).toFixed(2)} s (${(p.p95Ms / p.p50Ms).toFixed(2)}× p50); ${p.perMinute.toFixed(1)} plans/min`;
if (report.baseline) process.stdout.write(`${line('one at a time', report.baseline)}\n`);
process.stdout.write(`${line('at once', report)}\n`);
if (report.baseline) process.stdout.write(`plans/min at ${report.parallel} at once ÷ one at a time: ${(report.perMinute / report.baseline.perMinute).toFixed(2)}×\n`);
if (report.killed) process.stdout.write(`killed ${report.killed.what} (-9) after ${report.killed.afterPlans} plans ended, ${report.killed.inFlight} in flight\n`);
const mem = (m: { rss: number; pss: number }) => `${m.rss} MB RSS / ${m.pss} MB Pss`;
const after = Object.entries(report.afterPlanMb).map(([n, m]) => `after plan ${n}: ${mem(m)}`).join('; ');
process.stdout.write(`memory of host + sidecar + Chromium (sums): peak ${mem(report.peakMb)}; ${after}\n`);
process.stdout.write(`load average at the end (1/5/15 min): ${loadavg().map((l) => l.toFixed(1)).join(' / ')}; default_timeout_ms ${values['timeout-ms']}\n`);
process.stdout.write(`chain verify: ${report.chainOk ? 'intact' : 'FAILED'} (${join(dir, 'chain.jsonl')})\n`);
process.exitCode = report.crossed || !report.chainOk ? 1 : 0;
