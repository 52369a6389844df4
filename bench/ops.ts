// What metrics and principals cost per call (npm run build && node dist/bench/ops.js):
// the same web.extract on one host and one page, alternating, with metrics
// recorded and the call made as a [[mcp.clients]] principal (its own budget
// buckets and allowlist) versus metrics off and no principal. The note adds
// the pieces alone, in microseconds: the bearer check against the client
// table, the metrics record, the principal's budget buckets.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableBuckets } from '../host/budget/buckets.js';
import { createHost } from '../host/host.js';
import { TokenTable } from '../host/mcp/http-auth.js';
import { metrics } from '../host/metrics/metrics.js';
import type { Principal } from '../host/policies/types.js';
import { shopRoutes } from '../tests/fixtures/shop-site.js';
import { serve } from '../tests/helpers/fixture-server.js';
import { median, sideBySide, table, type Row } from './stats.js';

const N = Number(process.env.BENCH_N ?? 400);
const site = await serve(shopRoutes);
const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-ops-'));
const config = {
  capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
  network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'webcap.log') },
};
const principal: Principal = { name: 'bench-client', domains_allowlist: ['shop.test'], budgets: { per_capability_per_hour: { 'web.extract': 1_000_000_000 }, per_capability_per_day: { 'web.extract': 1_000_000_000 } } };
const host = createHost({ config });
const rows: Row[] = [];
try {
  await host.call('web.open', { url: site.url('shop.test', '/') });
  const params = { selector: 'h1' };
  const s = await sideBySide(N, async () => { metrics.setEnabled(true); return host.call('web.extract', params, { principal }); }, async () => { metrics.setEnabled(false); return host.call('web.extract', params); });
  const on = median(s.a);
  const off = median(s.b);
  rows.push({ name: `metrics + principal on vs off (web.extract h1, ${N} pairs)`, webcap: on, raw: off, pass: on - off <= 0.2, target: '≤ 0.2 ms added at the median', note: `pieces alone: ${pieces()}` });
} finally {
  await host.close();
  await site.close();
}
process.stdout.write(`webcap bench (operations), N=${N}\n\n${table(rows)}\n`);

/** Microseconds per call of each added piece, alone (100k iterations). */
function pieces(): string {
  const tokens = new TokenTable(Array.from({ length: 8 }, (_, i) => ({ name: `client${i}`, token: `token-${i}-${'x'.repeat(24)}` })));
  const req = { rawHeaders: ['Host', 'localhost', 'Authorization', `Bearer token-7-${'x'.repeat(24)}`, 'Content-Type', 'application/json'] };
  metrics.setEnabled(true);
  metrics.knowCapabilities(['web.extract']);
  const time = (fn: () => void) => { const n = 100_000; const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) fn(); return Number(process.hrtime.bigint() - t) / 1e3 / n; };
  const auth = time(() => tokens.authenticate(req));
  const record = time(() => metrics.call('web.extract', undefined, 0.004));
  const buckets = time(() => tableBuckets(principal.budgets!, 'web.extract', 'shop.test', 'client:bench-client:'));
  return `bearer check against 8 clients ${auth.toFixed(2)} µs, metrics record ${record.toFixed(2)} µs, principal buckets ${buckets.toFixed(2)} µs`;
}
