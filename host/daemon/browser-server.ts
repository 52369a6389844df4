// `webcap browser-server [--listen H:P] [--token-env NAME] [--config FILE]`:
// a Playwright browser server (launchServer) that hosts on other machines use
// through [capabilities.browser] remote_endpoint. Loopback by default; a
// non-loopback address needs a token (read from the env var --token-env names,
// never from argv, which `ps` shows), which becomes the WebSocket path:
// Playwright's server refuses any other path, so without the token there is
// no browser. The browser itself runs in a sidecar-side process
// (sidecar/browser/browser-server.ts): host/ never loads Playwright.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { projectRoot } from '../../manifests/load.js';
import { classifyAddress } from '../../manifests/net/address.js';
import { loadConfig } from '../config/load.js';
import { metrics } from '../metrics/metrics.js';
import { startOpsServer } from '../ops/ops-server.js';

/** A token shorter than this is guessable; refused. */
const MIN_TOKEN_LENGTH = 16;

interface ServerPlan { host: string; port: number; token?: string }

/** Checks the flags before anything binds. Pure, so the refusals are unit-testable. */
export function planServer(listen: string | undefined, tokenEnv: string | undefined, env: NodeJS.ProcessEnv = process.env): ServerPlan {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(listen ?? '127.0.0.1:0');
  if (!m || Number(m[3]) > 65535) throw new WebcapError('invalid_params', `--listen must be HOST:PORT (e.g. 127.0.0.1:9333 or [::1]:9333), got "${listen}"`, { field: '--listen' });
  const host = m[1] ?? m[2];
  let token: string | undefined;
  if (tokenEnv !== undefined) {
    token = env[tokenEnv];
    if (!token) throw new WebcapError('invalid_params', `--token-env names ${tokenEnv}, which is not set`, { field: '--token-env' });
    if (token.length < MIN_TOKEN_LENGTH || !/^[A-Za-z0-9._~-]+$/.test(token)) {
      throw new WebcapError('invalid_params', `the token in ${tokenEnv} must be at least ${MIN_TOKEN_LENGTH} characters of A-Z a-z 0-9 . _ ~ - (it becomes the URL path)`, { field: '--token-env' });
    }
  }
  const loopback = host === 'localhost' || classifyAddress(host) === 'loopback';
  if (!loopback && !token) {
    throw new WebcapError('invalid_params', `refusing to serve a browser on ${host}, which is not a loopback address, without a token: anyone who can reach it could drive the browser. Set one with --token-env NAME`, { field: '--listen' });
  }
  return { host, port: Number(m[3]), token };
}

export async function browserServerCommand(values: { listen?: string; tokenEnv?: string; config?: string }): Promise<number> {
  const plan = planServer(values.listen, values.tokenEnv);
  const config = loadConfig(values.config);
  const { capabilities: { browser }, network } = config;
  const settings = { host: plan.host, port: plan.port, headless: browser.headless, executable_path: browser.executable_path, resolve: network.resolve };
  const child = spawn(process.execPath, [join(projectRoot(), 'dist', 'sidecar', 'browser', 'browser-server.js')], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, WEBCAP_BROWSER_SERVER: JSON.stringify(settings), WEBCAP_BROWSER_SERVER_TOKEN: plan.token ?? '' },
  });
  // /metrics (Chromium's memory under this server) and /healthz at [metrics] listen.
  let alive = true;
  child.once('exit', () => { alive = false; });
  const unwatch = metrics.sidecarStarted(child.pid);
  const ops = config.metrics.listen
    ? await startOpsServer({ listen: config.metrics.listen, tokenEnv: config.metrics.token_env, health: async () => ({ ok: alive, checks: [{ name: 'browser_server', ok: alive }] }) })
    : undefined;
  if (ops) process.stderr.write(`${JSON.stringify({ metrics: `${ops.url}/metrics` })}\n`);
  // Ctrl-C or a service manager's stop reaches the server, which closes the browser.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  process.off('SIGINT', forward).off('SIGTERM', forward);
  unwatch();
  await ops?.close();
  return code;
}
