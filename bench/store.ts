// The shared store's cost and effect, measured in one run against a
// redis-server this bench starts on loopback:
// - added latency per call: what every governed call asks the store, the
//   budget + politeness admission (one Lua round trip), on Redis against the
//   embedded store, interleaved (target ≤ 0.5 ms at the median). The note
//   adds the whole governed call through two hosts (web.scrape admitted by
//   the budget, then refused by consent, so nothing past governance runs;
//   consent also looks up a remembered approval: a second round trip), and
//   the machine's load average, since each round trip needs redis-server
//   scheduled.
// - admitted/min: four clients (own connections, own politeness gates, as
//   four hosts would have) on one domain at 30/min, flat out for
//   BENCH_STORE_S seconds (default 65): the busiest 60 s window on Redis,
//   against four embedded admissions, which each allow their own 30.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolitenessGate } from '../host/budget/politeness.js';
import { loadConfig } from '../host/config/load.js';
import { createHost } from '../host/host.js';
import { cpus, loadavg } from 'node:os';
import { embeddedStore } from '../host/store/embedded.js';
import { redisStore } from '../host/store/redis.js';
import type { GovernanceStore } from '../host/store/types.js';
import { startRedis } from '../tests/helpers/redis-server.js';
import { median, percentile, timed, type Row } from './stats.js';

const PER_MINUTE = 30;

function hostConfig(store: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-store-'));
  return {
    capabilities: { browser: { domains_allowlist: ['127.0.0.1'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
    network: { allow_private: ['127.0.0.1'] },
    budgets: { per_domain: { '127.0.0.1': 1_000_000 } },
    consent: { non_interactive: 'deny', require: ['web.scrape'] },
    chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'webcap.log') },
    store,
  };
}

// Alternating a/b back to back. Not stats.sideBySide: its random pauses are
// for the browser's frame clock, which this call never meets, and on a loaded
// machine each pause lets redis-server be descheduled, so the next round trip
// would measure the scheduler rather than the store.
async function alternating(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) { await a(); await b(); }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) { as.push(await timed(a)); bs.push(await timed(b)); } else { bs.push(await timed(b)); as.push(await timed(a)); }
  }
  return { a: as, b: bs };
}

/** Four clients flat out on one domain; returns the busiest 60 s window of admissions. */
async function busiestWindow(stores: GovernanceStore[], seconds: number): Promise<number> {
  const config = loadConfig({ budgets: { per_domain: { '127.0.0.1': PER_MINUTE } } });
  const admittedAt: number[] = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(stores.map(async (store) => {
    const admission = store.admission(new PolitenessGate(config));
    while (Date.now() < until) {
      const v = await admission.admit({ buckets: [{ name: 'domain:127.0.0.1', limit: PER_MINUTE, windowMs: 60_000 }], host: '127.0.0.1', maxWaitMs: 1000 });
      if (v.ok) admittedAt.push(v.admittedAt);
      else await new Promise((r) => setImmediate(r));
    }
  }));
  admittedAt.sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; j < admittedAt.length; j++) {
    while (admittedAt[j] - admittedAt[i] >= 60_000) i++;
    busiest = Math.max(busiest, j - i + 1);
  }
  return busiest;
}

export async function storeRows(n: number): Promise<Row[]> {
  let redis;
  try {
    redis = await startRedis();
  } catch (err) {
    // The other rows need no Redis: say what is missing instead of losing the whole run.
    return [{ name: 'shared store: budget + politeness admission, Redis vs embedded', webcap: NaN, raw: NaN, pass: false, target: '≤ 0.5 ms added at the median', note: (err as Error).message }];
  }
  const embeddedHost = createHost({ config: hostConfig({}) });
  const redisHost = createHost({ config: hostConfig({ url: redis.url, prefix: 'bench:' }) });
  const clients = Array.from({ length: 4 }, () => redisStore({ url: redis.url, prefix: 'bench-window:' }));
  try {
    const scrape = (h: typeof embeddedHost) => () => h.call('web.scrape', { url: 'http://127.0.0.1:9/page' }).catch((e: { code: string }) => {
      if (e.code !== 'consent_denied') throw e;
    });
    const samples = Math.max(4 * n, 400);
    const s = await alternating(samples, scrape(redisHost), scrape(embeddedHost));
    const admitConfig = loadConfig({});
    const request = { buckets: [{ name: 'domain:bench.test', limit: 1_000_000_000, windowMs: 60_000 }], host: 'bench.test', maxWaitMs: 1000 };
    const viaRedis = clients[0].admission(new PolitenessGate(admitConfig));
    const viaEmbedded = embeddedStore().admission(new PolitenessGate(admitConfig));
    const admits = await alternating(samples * 5, () => viaRedis.admit(request), () => viaEmbedded.admit(request));
    const seconds = Number(process.env.BENCH_STORE_S ?? 65);
    const [shared, separate] = await Promise.all([busiestWindow(clients, seconds), busiestWindow([0, 1, 2, 3].map(() => embeddedStore()), seconds)]);
    const on = median(admits.a);
    const off = median(admits.b);
    return [{
      name: `shared store: budget + politeness admission, Redis vs embedded (${samples * 5} pairs)`, webcap: on, raw: off, pass: on - off <= 0.5,
      target: '≤ 0.5 ms added at the median',
      note: `p95 added ${(percentile(admits.a, 95) - percentile(admits.b, 95)).toFixed(2)} ms; whole governed call (2 round trips) ${median(s.a).toFixed(2)} vs ${median(s.b).toFixed(2)} ms, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; admitted/min on one domain at ${PER_MINUTE}/min, 4 hosts flat out for ${seconds} s (busiest 60 s): ${shared} with Redis, ${separate} with 4 embedded stores`,
    }];
  } finally {
    await Promise.all([embeddedHost.close(), redisHost.close(), ...clients.map((c) => c.close())]);
    await redis.stop();
  }
}
