// SIGTERM / SIGINT while a command runs in this process: the chain gets an
// `interrupted` event, the host closes (sessions, sidecar, browser), and the
// process exits 128 + signal. A plan that computes without calling out still
// gives the event loop a turn every few milliseconds (host/rtfs/limits.ts),
// so this handler always gets to run.
import type { Host } from '../host.js';

const EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };
/** How long closing may take before the process leaves anyway. */
const CLOSE_GRACE_MS = 5000;

/** Installs the handlers; the returned function removes them. */
export function exitOnSignal(host: Host, command: string): () => void {
  const handler = (signal: NodeJS.Signals) => {
    remove();
    setTimeout(() => process.exit(EXIT[signal] ?? 1), CLOSE_GRACE_MS).unref();
    void host.interrupted(signal, command)
      .catch(() => undefined)
      .then(() => host.close())
      .catch(() => undefined)
      .then(() => process.exit(EXIT[signal] ?? 1));
  };
  const remove = () => { process.off('SIGTERM', handler); process.off('SIGINT', handler); };
  process.on('SIGTERM', handler).on('SIGINT', handler);
  return remove;
}
