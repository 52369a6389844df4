// Where `webcap call` and `webcap run` execute: in the workspace's daemon
// (started on first use) so sessions outlive the command, or in this process
// with --no-daemon, [cli] daemon = false, or WEBCAP_DAEMON=0.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { loadConfig } from '../config/load.js';
import type { WebcapConfig } from '../config/types.js';
import { connectDaemon, requestOwnDaemon, type Listener } from '../daemon/client.js';
import { configIdentity } from '../daemon/identity.js';
import type { Request } from '../daemon/protocol.js';
import type { GlobalOptions } from './args.js';
import type { StepLog } from '../rtfs/plan-runner.js';
import type { Heal } from '../replay/heal.js';
import { exitOnSignal } from './interrupt.js';
import { printStep } from './step-log.js';
import { callerId } from './caller-id.js';

export interface ReplayRun { inputs: Record<string, string>; heal: boolean; onHeal(heal: Heal): void }

interface Executor {
  call(id: string, params: Record<string, unknown>): Promise<unknown>;
  /** seen: each step as it is logged (the CLI counts ✗ steps); replay: --input values and healing. */
  runPlan(source: string, seen?: (step: StepLog) => void, replay?: ReplayRun): Promise<unknown>;
}

const onLog = (m: string) => process.stderr.write(`  log: ${m}\n`);

function daemonWanted(opts: GlobalOptions, config: WebcapConfig): boolean {
  return opts.daemon !== false && config.cli.daemon && process.env.WEBCAP_DAEMON !== '0';
}

/** Runs body with an executor and always lets go of it (closing an in-process host). */
export async function withExecutor<T>(opts: GlobalOptions, body: (x: Executor) => Promise<T>, command = 'call'): Promise<T> {
  const config = loadConfig(opts.config);
  if (daemonWanted(opts, config)) {
    const configFile = configFileOf(opts.config);
    const caller = { caller: callerId(), yes: Boolean(opts.yes), tty: Boolean(process.stdin.isTTY && process.stderr.isTTY), config: configFile, config_id: configIdentity(configFile, config), ...(opts.console ? { console: true } : {}) };
    const send = (req: Request, listener?: Listener) => requestOwnDaemon(config, configFile, req, listener);
    return body({
      call: async (id, params) => send({ op: 'call', id, params, ...caller }),
      runPlan: async (source, seen, replay) => send({ op: 'run', source, inputs: replay?.inputs, heal: replay?.heal, ...caller },
        { onStep: (s) => { printStep(s); seen?.(s); }, onLog, onHeal: (h) => replay?.onHeal(h) }),
    });
  }
  // One writer per chain: a daemon serving this workspace would fork it with ours.
  const live = await connectDaemon(config).catch(() => undefined);
  if (live) {
    live.destroy();
    throw new WebcapError('invalid_params', `a webcap daemon is serving this workspace (${config.workspace.path}); drop --no-daemon to use it (it restarts for this configuration if it serves another), or stop it first (\`webcap daemon stop\`)`);
  }
  // The host loads only here: through a daemon, this process never needs it.
  const { createHost } = await import('../host.js');
  const host = createHost({ config: opts.config, yes: opts.yes });
  const stopWatching = exitOnSignal(host, command);
  // The URL carries the token: printed once, on stderr, never logged.
  if (opts.console) process.stderr.write(`webcap console: ${(await host.console()).url}\n`);
  try {
    return await body({
      call: (id, params) => host.call(id, params, { caller: 'CLI (webcap call)' }),
      runPlan: (source, seen, replay) => host.runPlan(source, {
        onStep: (s) => { printStep(s); seen?.(s); }, onLog,
        ...(replay ? { inputs: replay.inputs, heal: { force: replay.heal, onHeal: (h) => replay.onHeal(h) } } : {}),
      }),
    });
  } finally {
    stopWatching();
    await host.close();
  }
}

/** The file loadConfig would read (same order), resolved; null when it reads none. */
export function configFileOf(explicit: string | undefined): string | null {
  const path = explicit ?? process.env.WEBCAP_CONFIG ?? (existsSync('agent_config.toml') ? 'agent_config.toml' : undefined);
  return path ? resolve(path) : null;
}
