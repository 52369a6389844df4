// `webcap doctor`: is this installation ready to serve? Each check is what
// would fail later, tried now: the config as loading reads it, Chromium
// launched by the sidecar and a page opened on loopback, the workspace and
// the chain (writable, verifies), the store (answers, takes the admission
// script, takes a write), the search providers' keys, and the sidecar build's
// attestation. A missing search key is a warning (search is optional).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { attest, installedSidecarEntry, sidecarEntry } from '../sidecar-link/attestation.js';
import { verifyChain } from '../chain/verify.js';
import { loadConfig } from '../config/load.js';
import type { WebcapConfig } from '../config/types.js';
import { createHost } from '../host.js';
import { acquireStore } from '../store/index.js';
import { check, type Check } from './health.js';

interface DoctorCheck extends Check { warn?: boolean }
interface DoctorReport { ok: boolean; checks: DoctorCheck[] }

export async function runDoctor(configFile: string | undefined): Promise<DoctorReport> {
  let config: WebcapConfig | undefined;
  const first = await check('config', async () => { config = loadConfig(configFile); return configFile ?? process.env.WEBCAP_CONFIG ?? (existsSync('agent_config.toml') ? 'agent_config.toml' : 'defaults (no config file)'); });
  if (!config) return { ok: false, checks: [first] };
  const c = config;
  const checks: DoctorCheck[] = [first];
  checks.push(await check('workspace', () => probeWrite(c.workspace.path)));
  checks.push(await check('chain', () => chainCheck(c)));
  checks.push(...await storeChecks(c));
  checks.push(...searchKeys(c));
  checks.push(await check('sidecar_attestation', async () => attestation()));
  checks.push(await check('chromium', () => browserCheck(c)));
  return { ok: checks.every((x) => x.ok), checks };
}

/** A folder is writable when a file can be made and removed in it (it is created if missing, as webcap would). */
async function probeWrite(folder: string): Promise<string> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(folder, { recursive: true });
  const probe = join(folder, `.doctor-${process.pid}`);
  await writeFile(probe, 'ok', { flag: 'wx' });
  await unlink(probe);
  return folder;
}

async function chainCheck(config: WebcapConfig): Promise<string> {
  await probeWrite(dirname(config.chain.path));
  if (!existsSync(config.chain.path)) return `${config.chain.path} (none yet)`;
  const v = verifyChain(config.chain.path);
  if (!v.ok) throw new Error(`${config.chain.path} does not verify at line ${v.line}: ${v.reason}`);
  return `${config.chain.path}: ${v.entries} entries verify`;
}

async function storeChecks(config: WebcapConfig): Promise<DoctorCheck[]> {
  let acquired;
  try { acquired = acquireStore(config); } catch (err) { return [{ name: 'store', ok: false, detail: (err as Error).message }]; }
  const { store, release } = acquired;
  try {
    const checks = store.checks;
    if (!checks) return [{ name: 'store', ok: true, detail: 'embedded (this process and its workspace)' }];
    return [
      await check('store_ping', () => checks.ping()),
      await check('store_script', () => checks.scriptLoads()),
      await check('store_write', () => checks.writes()),
    ];
  } finally {
    await release();
  }
}

function searchKeys(config: WebcapConfig): DoctorCheck[] {
  const keys: Array<[string, string]> = [['serpapi', config.search.serpapi.api_key_env], ['exa', config.search.exa.api_key_env], ['apify', config.search.apify.token_env]];
  return keys.map(([name, env]) => (process.env[env]
    ? { name: `search_${name}`, ok: true, detail: `${env} is set` }
    : { name: `search_${name}`, ok: true, warn: true, detail: `${env} is not set: ${name} is unavailable` }));
}

function attestation(): string {
  const entry = sidecarEntry();
  if (!existsSync(entry)) throw new Error(`the sidecar is not built (${entry} missing): run \`npm run build\``);
  const running = attest(entry);
  if (entry !== installedSidecarEntry()) {
    const installed = attest(installedSidecarEntry());
    if (installed.sha256 !== running.sha256) throw new Error(`WEBCAP_SIDECAR_ENTRY runs code that is not the installed build (${running.sha256} vs ${installed.sha256})`);
  }
  return `${running.sha256} (${running.files} files)`;
}

/** The sidecar launches the configured browser and opens a page served on loopback; a scratch workspace keeps the user's chain clean. */
async function browserCheck(config: WebcapConfig): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), 'webcap-doctor-'));
  const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>webcap doctor</title><p>ok</p>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const { browser } = config.capabilities;
  const host = createHost({
    config: {
      capabilities: { browser: {
        headless: browser.headless, remote_kind: browser.remote_kind, default_timeout_ms: browser.default_timeout_ms,
        ...(browser.executable_path ? { executable_path: browser.executable_path } : {}),
        ...(browser.remote_endpoint ? { remote_endpoint: browser.remote_endpoint } : {}),
        domains_allowlist: ['127.0.0.1'], respect_robots: false,
      } },
      network: { allow_private: ['127.0.0.1'] },
      consent: { non_interactive: 'deny' },
      workspace: { path: scratch }, chain: { path: join(scratch, 'chain.jsonl') }, logging: { file: join(scratch, 'webcap.log'), level: 'warn' },
      metrics: { enabled: config.metrics.enabled },
    },
  });
  try {
    const started = Date.now();
    const { port } = page.address() as AddressInfo;
    const opened = await host.call('web.open', { url: `http://127.0.0.1:${port}/` });
    if (opened.title !== 'webcap doctor') throw new Error(`the page opened with title ${JSON.stringify(opened.title)}`);
    return `launched and opened a loopback page in ${Date.now() - started} ms`;
  } finally {
    await host.close().catch(() => undefined);
    page.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
