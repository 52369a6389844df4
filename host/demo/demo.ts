// `webcap demo` (npm start), the main job, offline: serve the bundled demo
// sites on loopback, run three plans through the whole stack (a maps search
// with infinite scroll, a booking search paging with loop/recur, and a plan
// written by discovery), print what they found, the step log, and where the
// causal chain is with its verification.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { projectRoot } from '../../manifests/load.js';
import { startDemoSites } from '../../demo-sites/serve.js';
import { verifyChain } from '../chain/verify.js';
import { rememberChain } from '../cli/last-chain.js';
import type { Asker } from '../consent/asker.js';
import { formatStep } from '../cli/step-log.js';
import { createHost, type Host } from '../host.js';
import { rowsOf, table } from './table.js';
import { lastSeqOf, writeDemoReport } from '../report/demo-report.js';

const COLUMNS = ['name', 'rating', 'address', 'link'];
const say = (text = '') => process.stdout.write(`${text}\n`);

/** The demo answers yes to every question, and shows each one: the point is to see where a user would be asked. */
const demoAsker: Asker = async (q) => {
  say(`  ? ${q.question}  → yes (the demo approves; \`webcap run\` would ask you)`);
  return { approved: true };
};

function demoConfig(resolveTable: Record<string, string>): Record<string, unknown> {
  const config = parse(readFileSync(join(projectRoot(), 'examples', 'agent_config.toml'), 'utf8')) as Record<string, Record<string, unknown>>;
  config.network = { ...config.network, resolve: resolveTable };
  // As an object the config has no file to be relative to: the same folders the file names, from the
  // repository root (where `npm start` runs), so the demo and `--config examples/agent_config.toml` share one chain.
  config.chain = { ...config.chain, path: '.webcap/demo/chain.jsonl' };
  config.workspace = { ...config.workspace, path: '.webcap/demo' };
  return config;
}

async function runOne(host: Host, title: string, source: string): Promise<number> {
  say(`\n== ${title}`);
  const started = Date.now();
  const value = await host.runPlan(source, {
    onStep: (s) => say(`  ${formatStep(s)}`),
    onLog: (m) => say(`  log: ${m}`),
  });
  const rows = rowsOf(value);
  say(`\n${table(rows, COLUMNS)}\n  (${rows.length} results in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return rows.length;
}

export async function runDemo(opts: { serveOnly?: boolean } = {}): Promise<number> {
  if (opts.serveOnly) return serveForever();
  const started = Date.now();
  const sites = await startDemoSites();
  const config = demoConfig(sites.resolve);
  freshChain(config);
  const host = createHost({ config, ask: demoAsker });
  const firstSeq = lastSeqOf(host.config.chain.path);
  try {
    say('webcap demo: two bundled sites on loopback, three plans, every call governed and recorded.');
    const examples = join(projectRoot(), 'examples');
    await runOne(host, 'Plan 1: examples/maps-search.rtfs (consent banner, JS results, infinite scroll)', readFileSync(join(examples, 'maps-search.rtfs'), 'utf8'));
    await runOne(host, 'Plan 2: examples/booking-search.rtfs (banner in an iframe via profile, 5 pages with loop/recur)', readFileSync(join(examples, 'booking-search.rtfs'), 'utf8'));
    const written = host.plan('local.business.search', { query: 'bakeries in Bordeaux' });
    say('\n== Plan 3: written by discovery for need "local.business.search" (query "bakeries in Bordeaux")');
    for (const c of written.candidates) say(`  ${c === written.candidate ? '→' : ' '} ${c.profile.padEnd(14)} score ${c.score.toFixed(1)}  ${c.reason}`);
    say(`\n${written.source.trimEnd().split('\n').map((l) => `    ${l}`).join('\n')}`);
    await runOne(host, 'Plan 3: running the discovered plan', written.source);
  } finally {
    await host.close();
    await sites.close();
  }
  const chainPath = resolve(host.config.chain.path);
  const verdict = verifyChain(chainPath);
  say(`\ncausal chain: ${chainPath}`);
  say(verdict.ok ? `chain verify: intact (${verdict.entries} entries)` : `chain verify: TAMPERED at line ${verdict.line}: ${verdict.reason}`);
  say(`run report: ${writeDemoReport(chainPath, firstSeq, host.config.workspace.path)}`);
  say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return verdict.ok ? 0 : 1;
}

/** Each run starts its own demo chain (the one before is kept as chain.prev.jsonl), so what it shows is this run's. */
function freshChain(config: Record<string, unknown>): void {
  const path = resolve(((config.chain as { path?: string } | undefined)?.path) ?? '.webcap/demo/chain.jsonl');
  if (existsSync(path)) renameSync(path, path.replace(/\.jsonl$/, '') + '.prev.jsonl');
  rememberChain(path);
}

/** `webcap demo --serve`: the sites on the fixed ports examples/agent_config.toml names, until Ctrl-C. */
async function serveForever(): Promise<number> {
  const sites = await startDemoSites({ http: 47080, https: 47443, recordHits: false });
  say('demo sites serving (Ctrl-C to stop); [network] resolve:');
  for (const [name, target] of Object.entries(sites.resolve)) say(`  "${name}" = "${target}"`);
  await new Promise<void>((done) => process.once('SIGINT', done).once('SIGTERM', done));
  await sites.close();
  return 0;
}
