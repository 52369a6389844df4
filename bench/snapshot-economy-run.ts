// node dist/bench/snapshot-economy-run.js: the snapshot-economy table alone
// (npm run bench prints it too). Pages: bench/corpus/*/*/source.html.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../host/host.js';
import { corpusPages, economyTable, snapshotEconomy } from './snapshot-economy.js';

const dir = mkdtempSync(join(tmpdir(), 'webcap-econ-'));
const host = createHost({ config: {
  capabilities: { browser: { domains_allowlist: ['corpus.test'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
  network: { resolve: { 'corpus.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  chain: { path: join(dir, 'chain.jsonl') }, workspace: { path: dir }, logging: { level: 'warn', file: join(dir, 'webcap.log') },
} });
try {
  const pages = corpusPages();
  await host.call('web.open', { url: 'about:blank' }).catch(() => undefined);
  const rows = await snapshotEconomy(host, pages);
  if (process.env.ECON_ROWS) for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
  process.stdout.write(`${economyTable(rows)}\n`);
} finally {
  await host.close();
}
