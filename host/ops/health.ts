// The cheap checks an HTTP server answers at /healthz (no token: they carry
// no data, only names and ok): the workspace and the chain's folder are
// writable, the shared store answers a PING. `webcap doctor` runs these and
// the expensive ones (host/ops/doctor.ts).
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WebcapConfig } from '../config/types.js';
import { storeFor } from '../store/index.js';

export interface Check { name: string; ok: boolean; detail?: string }
export interface Health { ok: boolean; checks: Check[] }

export async function check(name: string, run: () => Promise<string | void>): Promise<Check> {
  try {
    const detail = await run();
    return detail ? { name, ok: true, detail } : { name, ok: true };
  } catch (err) {
    return { name, ok: false, detail: err instanceof Error ? err.message : String(err) };
  }
}

export async function writable(path: string): Promise<void> {
  await access(path, constants.W_OK);
}

function cheapChecks(config: WebcapConfig): Promise<Check>[] {
  return [
    check('workspace', () => writable(config.workspace.path)),
    check('chain', () => writable(dirname(config.chain.path))),
    check('store', async () => {
      const store = storeFor(config);
      if (!store.checks) return 'embedded';
      await store.checks.ping();
      return 'redis';
    }),
  ];
}

export async function health(config: WebcapConfig, extra: Promise<Check>[] = []): Promise<Health> {
  const checks = await Promise.all([...cheapChecks(config), ...extra]);
  // /healthz names the check and its state; the detail (a path, a server's message) stays with doctor.
  return { ok: checks.every((c) => c.ok), checks: checks.map(({ name, ok }) => ({ name, ok })) };
}
