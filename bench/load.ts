// Many plans at once through one host: N plans, P at once, over the bundled
// demo sites on loopback (the maps search of examples/maps-search.rtfs without
// its question, each plan for a town of its own so a crossed plan shows). It
// counts plans returned in full, crossed (a place of another plan's town) and
// failed by code; times each plan; samples the resident memory of host +
// sidecar + Chromium; may kill Chromium or the sidecar once mid-run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoSites } from '../demo-sites/serve.js';
import { verifyChain } from '../host/chain/verify.js';
import { createHost, type Host } from '../host/host.js';
import { toWebcapError } from '../manifests/errors.js';
import { projectRoot } from '../manifests/load.js';
import { chromiumPid, memoryMb, sidecarPid } from './load-processes.js';
import { percentile } from './stats.js';

export interface LoadOptions {
  plans: number;
  parallel: number;
  slots: number;
  /** Kill this once, after `killAfter` plans have ended, while others run. */
  kill?: 'chromium' | 'sidecar';
  killAfter?: number;
  /** Plans run one at a time first, for the plans-per-minute ratio (0: none). */
  baseline?: number;
  /** Workspace and chain go here. */
  dir: string;
  /**
   * [capabilities.browser] default_timeout_ms: also how long a web.open waits
   * in line for a slot. Default 30000 (webcap's); on a machine shared with
   * other work, a plan waiting behind three slow ones needs more.
   */
  timeoutMs?: number;
}

export interface PassReport {
  plans: number;
  parallel: number;
  full: number;
  crossed: number;
  short: number;
  errors: Record<string, number>;
  p50Ms: number;
  p95Ms: number;
  perMinute: number;
  wallMs: number;
}

export interface LoadReport extends PassReport {
  baseline?: PassReport;
  killed?: { what: string; afterPlans: number; inFlight: number };
  /** Highest sum over the run (sampled every 250 ms), RSS and Pss. */
  peakMb: { rss: number; pss: number };
  /** The sums just after the 6th plan ended and after the last. */
  afterPlanMb: Record<number, { rss: number; pss: number }>;
  chainOk: boolean;
}

const EXPECTED_PLACES = 20;

/** examples/maps-search.rtfs without its ccos.user.ask line, searching `town`. */
export function mapsPlan(town: string): string {
  const source = readFileSync(join(projectRoot(), 'examples', 'maps-search.rtfs'), 'utf8');
  return source.split('\n').filter((l) => !l.includes(':ccos.user.ask')).join('\n').replace('restaurants in Paris', `restaurants in ${town}`);
}

const townOf = (i: number) => `Town${i}`;

function classify(value: unknown, i: number): 'full' | 'crossed' | 'short' {
  const items = Array.isArray(value) ? value as Array<{ address?: unknown }> : [];
  const mine = `, ${townOf(i)}`;
  if (items.some((p) => typeof p.address !== 'string' || !p.address.endsWith(mine))) return 'crossed';
  return items.length === EXPECTED_PLACES ? 'full' : 'short';
}

async function pass(host: Host, first: number, count: number, parallel: number, onEnd: (ended: number, running: number) => void): Promise<PassReport> {
  const times: number[] = [];
  const report: PassReport = { plans: count, parallel, full: 0, crossed: 0, short: 0, errors: {}, p50Ms: 0, p95Ms: 0, perMinute: 0, wallMs: 0 };
  let next = first;
  let ended = 0;
  let running = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < first + count) {
      const i = next++;
      const t = Date.now();
      running += 1;
      try {
        report[classify(await host.runPlan(mapsPlan(townOf(i))), i)] += 1;
      } catch (err) {
        const code = toWebcapError(err).code;
        report.errors[code] = (report.errors[code] ?? 0) + 1;
      }
      running -= 1;
      times.push(Date.now() - t);
      onEnd(++ended, running);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  report.wallMs = Date.now() - started;
  report.p50Ms = percentile(times, 50);
  report.p95Ms = percentile(times, 95);
  report.perMinute = count / (report.wallMs / 60_000);
  return report;
}

async function loadHost(o: LoadOptions): Promise<{ host: Host; sites: Awaited<ReturnType<typeof startDemoSites>> }> {
  const sites = await startDemoSites({ recordHits: false });
  const config = {
    capabilities: { browser: { domains_allowlist: ['*.demo.test'], max_actions_per_minute: 100_000, max_concurrent_sessions: o.slots, session_queue: 'wait', auto_accept_cookies: 'per_site', default_timeout_ms: o.timeoutMs ?? 30_000 } },
    network: { resolve: sites.resolve, allow_private: ['127.0.0.1'] },
    chain: { path: join(o.dir, 'chain.jsonl') },
    workspace: { path: o.dir },
    logging: { level: 'warn', file: join(o.dir, 'webcap.log') },
  };
  return { host: createHost({ config, yes: true }), sites };
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const { host, sites } = await loadHost(o);
  const peak = { rss: 0, pss: 0 };
  const sample = () => {
    const m = memoryMb();
    peak.rss = Math.max(peak.rss, Math.round(m.rss));
    peak.pss = Math.max(peak.pss, Math.round(m.pss));
    return { rss: Math.round(m.rss), pss: Math.round(m.pss) };
  };
  const sampler = setInterval(sample, 250);
  const afterPlanMb: Record<number, { rss: number; pss: number }> = {};
  try {
    const baseline = o.baseline ? await pass(host, 1000, o.baseline, 1, () => undefined) : undefined;
    let killed: LoadReport['killed'];
    const killAfter = o.killAfter ?? Math.floor(o.plans / 3);
    const main = await pass(host, 0, o.plans, o.parallel, (ended, running) => {
      if (ended === Math.min(6, o.plans) || ended === o.plans) afterPlanMb[ended] = sample();
      if (o.kill && !killed && ended >= killAfter && running > 0) {
        const pid = o.kill === 'chromium' ? chromiumPid() : sidecarPid();
        if (pid) {
          process.kill(pid, 'SIGKILL');
          killed = { what: o.kill, afterPlans: ended, inFlight: running };
        }
      }
    });
    sample();
    return { ...main, baseline, killed, peakMb: { ...peak }, afterPlanMb, chainOk: false };
  } finally {
    clearInterval(sampler);
    await host.close();
    await sites.close();
  }
}

/** After the host closed: the chain must verify. */
export function withChainVerdict(report: LoadReport, dir: string): LoadReport {
  return { ...report, chainOk: verifyChain(join(dir, 'chain.jsonl')).ok };
}

/**
 * Growth with the number of plans run, measured like for like: one idle
 * session keeps Chromium up, `first` plans run, everything settles, memory is
 * sampled; the rest run, settle, sampled again. Only idle moments are compared
 * (a sample taken while plans run measures their pages, not growth).
 */
export async function idleMemory(o: LoadOptions & { first: number }): Promise<{ afterFirst: { rss: number; pss: number }; afterAll: { rss: number; pss: number }; failed: number }> {
  const { host, sites } = await loadHost(o);
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 3000));
    const m = memoryMb();
    return { rss: Math.round(m.rss), pss: Math.round(m.pss) };
  };
  try {
    const keeper = host.scope('keeper');
    await keeper.call('web.open', { url: `http://maps.demo.test/maps` });
    const a = await pass(host, 0, o.first, o.parallel, () => undefined);
    const afterFirst = await settled();
    const b = await pass(host, o.first, o.plans - o.first, o.parallel, () => undefined);
    const afterAll = await settled();
    const failed = a.plans - a.full + b.plans - b.full;
    await keeper.close();
    return { afterFirst, afterAll, failed };
  } finally {
    await host.close();
    await sites.close();
  }
}
