// The daemon's two rows. (1) A click through a warm CLI daemon: the daemon's own
// answer time (connect to its socket, send web.click, read the result) against
// a raw Playwright click in an open page. (2) `webcap call web.open` cold with
// no daemon, as a whole process, against a node script doing launch + goto,
// also a whole process.
import { configIdentity } from '../host/daemon/identity.js';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import type { Page } from 'playwright';
import { loadConfig } from '../host/config/load.js';
import { connectDaemon, request, startDaemon } from '../host/daemon/client.js';
import { projectRoot } from '../manifests/load.js';
import { median, sideBySide, timed, type Row } from './stats.js';
import { writeConfig } from './bench-config.js';

function runProcess(args: string[], cwd: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, WEBCAP_CONFIG: '' } });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

export async function daemonRows(url: (p: string) => string, resolve: Record<string, string>, page: Page, n: number): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'webcap-bench-daemon-'));
  const file = join(dir, 'agent_config.toml');
  writeConfig(file, {
    capabilities: { browser: { domains_allowlist: ['*.test'], respect_robots: false, max_actions_per_minute: 1_000_000 } },
    network: { resolve, allow_private: ['127.0.0.1'] },
    logging: { level: 'warn' },
  });
  const config = loadConfig(file);
  const caller = { yes: true, tty: false, config: resolvePath(file), config_id: configIdentity(resolvePath(file), config) };
  const ask = async (req: Parameters<typeof request>[1]) => request((await connectDaemon(config)) ?? (await startDaemon(config, file)), req);
  await ask({ op: 'call', id: 'web.open', params: { url: url('/') }, ...caller });
  await page.goto(url('/'));
  const s = await sideBySide(n, () => ask({ op: 'call', id: 'web.click', params: { selector: '#buy' }, ...caller }), () => page.click('#buy'));
  await ask({ op: 'stop' });
  const rows: Row[] = [];
  const click = { webcap: median(s.a), raw: median(s.b) };
  rows.push({ name: 'web.click through a warm CLI daemon (socket round trip) vs raw click', ...click, target: 'ratio ≤ 1.3 or ≤ 5 ms added', pass: click.webcap / click.raw <= 1.3 || click.webcap - click.raw <= 5 });

  const cli = join(projectRoot(), 'bin', 'webcap.js');
  const raw = join(projectRoot(), 'dist', 'bench', 'raw-open.js');
  const w: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < 5; i++) {
    w.push(await timed(() => runProcess([cli, 'call', 'web.open', JSON.stringify({ url: url('/') }), '--no-daemon', '--config', file], dir)));
    r.push(await timed(() => runProcess([raw, url('/'), JSON.stringify(resolve)], dir)));
  }
  const cold = { webcap: median(w), raw: median(r) };
  rows.push({ name: '`webcap call web.open` cold, no daemon (process) vs node launch+goto script (process)', ...cold, target: 'ratio ≤ 1.3', pass: cold.webcap / cold.raw <= 1.3 });
  return rows;
}
