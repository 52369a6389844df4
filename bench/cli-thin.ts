// A shell-driven agent's price per command: whole-process time of a webcap verb
// against a warm daemon (the thin client) and of `webcap --version`, against
// agent-browser's native CLI doing the same (its daemon warm too) and Node's own
// start (`node -e 0`, the floor of any Node CLI on this machine), interleaved
// in one run with the order rotating per sample. The same verbs through the
// package's `webcap` command (bin/webcap, the sh entry) run the native client
// when `npm run setup` built it (native/webcap-thin). Everything stays on loopback.
//   npx tsc -p tsconfig.json && BENCH_N=20 node dist/bench/cli-thin.js
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../manifests/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { median, timed } from './stats.js';

const run = promisify(execFile);
const N = Number(process.env.BENCH_N ?? 20);
const PAGE = html(`<h1>Sign up</h1><label for="name">Name</label> <input id="name">
  <button id="go" type="button" onclick="document.getElementById('status').textContent='clicked ' + Date.now()">Go</button><p id="status">idle</p>`);

const site = await serve({ '/form': (_q, res) => send(res, PAGE) });
const dir = mkdtempSync(join(tmpdir(), 'webcap-thin-'));
writeFileSync(join(dir, 'agent_config.toml'), '[capabilities.browser]\ndomains_allowlist = ["127.0.0.1"]\nrespect_robots = false\nmax_actions_per_minute = 1000000\n\n[network]\nallow_private = ["127.0.0.1"]\n\n[logging]\nlevel = "warn"\n');
const exe = (await findChromium())!.path;
const webcapBin = join(projectRoot(), 'bin', 'webcap.js');
const abBin = join(projectRoot(), 'node_modules', 'agent-browser', 'bin', `agent-browser-${process.platform}-${process.arch}`);
const env = { ...process.env, WEBCAP_CONFIG: '', WEBCAP_DAEMON: '1', WEBCAP_CALLER: 'bench-thin' };
const webcap = (...args: string[]) => run(process.execPath, [webcapBin, '--config', join(dir, 'agent_config.toml'), ...args], { cwd: dir, env });
const native = existsSync(join(projectRoot(), 'native', 'webcap-thin'));
// strict: a verb the native client hands to Node fails the bench instead of being timed as native.
const webcapSh = (...args: string[]) => run(join(projectRoot(), 'bin', 'webcap'), ['--config', join(dir, 'agent_config.toml'), ...args], { cwd: dir, env: { ...env, WEBCAP_THIN_TRACE: 'strict' } });
const abBase = ['--session', 'webcap-thin', '--executable-path', exe, '--args', '--no-sandbox,--disable-gpu,--proxy-server=http://127.0.0.1:9'];
const ab = (...args: string[]) => run(abBin, [...abBase, ...args], { cwd: dir });
const url = site.url('127.0.0.1', '/form');

// Warm both daemons and their pages (the first webcap verb goes the full way and starts the daemon).
await webcap('open', url);
await ab('open', url);

const sides: Array<[string, () => Promise<unknown>]> = [
  ['`node -e 0` (Node\'s own start)', () => run(process.execPath, ['-e', '0'])],
  ['`webcap --version`', () => run(process.execPath, [webcapBin, '--version'])],
  ['`agent-browser --version`', () => ab('--version')],
  ['`webcap click "#go"` (warm daemon, Node thin client)', () => webcap('click', '#go')],
  ['`agent-browser click "#go"` (warm daemon)', () => ab('click', '#go')],
  ['`webcap snapshot` (warm daemon, Node thin client)', () => webcap('snapshot')],
  ['`agent-browser snapshot` (warm daemon)', () => ab('snapshot')],
  ...(native ? [
    ['`webcap click "#go"` (warm daemon, native client via bin/webcap)', () => webcapSh('click', '#go')],
    ['`webcap snapshot` (warm daemon, native client via bin/webcap)', () => webcapSh('snapshot')],
  ] as Array<[string, () => Promise<unknown>]> : []),
];
for (const [, side] of sides) await side();
const samples = sides.map(() => [] as number[]);
const load = loadavg()[0];
for (let i = 0; i < N; i++) {
  for (let k = 0; k < sides.length; k++) {
    const which = (i + k) % sides.length;
    samples[which].push(await timed(sides[which][1]));
  }
}
const loadAfter = loadavg()[0];
await webcap('close').catch(() => undefined);
await webcap('daemon', 'stop').catch(() => undefined);
await ab('close').catch(() => undefined);
await site.close();
const med = samples.map(median);
const at = (start: string) => med[sides.findIndex(([name]) => name.startsWith(start))];
const lines = sides.map(([name], i) => `| ${name} | ${med[i].toFixed(0)} | ${(med[i] - med[0]).toFixed(0)} |`);
const nodeClick = at('`webcap click "#go"` (warm daemon, Node');
const abClick = at('`agent-browser click');
const nativeClick = native ? at('`webcap click "#go"` (warm daemon, native') : undefined;
const verb = nativeClick ?? nodeClick;
process.stdout.write(`whole-process time, N=${N} each, interleaved; load average ${load.toFixed(1)} → ${loadAfter.toFixed(1)}

| command | median ms | above \`node -e 0\` |
|---|---:|---:|
${lines.join('\n')}

webcap click (Node thin client) ÷ agent-browser click: ${(nodeClick / abClick).toFixed(2)}; ${nativeClick !== undefined ? `webcap click (native) ÷ agent-browser click: ${(nativeClick / abClick).toFixed(2)}; ` : 'native client not built (npm run setup builds it); '}webcap --version ÷ agent-browser --version: ${(med[1] / med[2]).toFixed(2)}
targets: verb ≤ 100 ms: ${verb <= 100 ? 'yes' : 'NO'} (${verb.toFixed(0)}, ${nativeClick !== undefined ? 'native' : 'Node'} client); --version ≤ 150 ms: ${med[1] <= 150 ? 'yes' : 'NO'} (${med[1].toFixed(0)})
`);
