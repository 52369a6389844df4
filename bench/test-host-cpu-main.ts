// What one test host costs in CPU seconds, with its own Chromium and with a
// browser shared through a browser server (capabilities.browser.remote_endpoint),
// to decide whether the test suite should share one. Each host opens one page
// and closes, as a short e2e test does. Everything runs as a child of this
// process (sidecars, their Chromiums, the browser server), so the CPU of the
// children it reaped counts all of it; CPU seconds swell little with the load,
// wall time does. `npm run build && node dist/bench/test-host-cpu-main.js [hosts]`
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { html, send, serve } from '../tests/helpers/fixture-server.js';
import { testConfig, testHost } from '../tests/helpers/host.js';

const HOSTS = Number(process.argv[2] ?? 6);

/** This process's CPU seconds plus those of every child it has reaped. */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
  return (utime + stime + cutime + cstime) / 100;
}

function statOf(pid: number): { ppid: number; cpu: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100 };
  } catch { return undefined; }
}

/** CPU seconds of a live process and its live descendants (and what each of them reaped). */
function treeCpuSeconds(root: number): number {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => [Number(d), statOf(Number(d))] as const);
  let sum = statOf(root)?.cpu ?? 0;
  const walk = (pid: number) => { for (const [child, s] of all) if (s?.ppid === pid) { sum += s.cpu; walk(child); } };
  walk(root);
  return sum;
}

async function startBrowserServer() {
  const entry = fileURLToPath(new URL('../sidecar/browser/browser-server.js', import.meta.url));
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, WEBCAP_BROWSER_SERVER: JSON.stringify({ host: '127.0.0.1', port: 0, headless: true, resolve: {} }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    if (out.includes('\n')) break;
  }
  const endpoint = (JSON.parse(out.split('\n')[0]) as { ws_endpoint: string }).ws_endpoint;
  return { endpoint, startCpu: treeCpuSeconds(child.pid!), stop: async () => { child.kill('SIGTERM'); if (child.exitCode === null) await once(child, 'exit'); } };
}

async function main(): Promise<void> {
  const site = await serve({ '/': (_req, res) => send(res, html('<h1>Shop</h1><form method="post"><input name="q"><button>Go</button></form>')) });
  const hostsOn = async (browser: Record<string, unknown>) => {
    for (let i = 0; i < HOSTS; i++) {
      const host = testHost(testConfig({ browser, network: { resolve: { 'shop.test': '127.0.0.1' } } }));
      try { await host.call('web.open', { url: site.url('shop.test', '/') }); } finally { await host.close(); }
    }
  };
  const load = loadavg()[0];
  const c0 = cpuSeconds();
  await hostsOn({});
  const own = (cpuSeconds() - c0) / HOSTS;

  const c1 = cpuSeconds();
  const server = await startBrowserServer();
  await hostsOn({ remote_endpoint: server.endpoint, remote_kind: 'playwright' });
  await server.stop();
  const sharedTotal = cpuSeconds() - c1;
  // The server's start is paid once per run, not per host.
  const sharedPerHost = (sharedTotal - server.startCpu) / HOSTS;
  await site.close();
  console.log(JSON.stringify({
    hosts: HOSTS, load_average_1m: +load.toFixed(1),
    cpu_s_per_host_own_chromium: +own.toFixed(2),
    cpu_s_per_host_shared_browser: +sharedPerHost.toFixed(2),
    browser_server_start_cpu_s: +server.startCpu.toFixed(2),
    shared_total_cpu_s_incl_server: +sharedTotal.toFixed(2),
    ratio_shared_to_own: +(sharedPerHost / own).toFixed(2),
  }));
}

main().catch((err: unknown) => { console.error(err); process.exit(1); });
