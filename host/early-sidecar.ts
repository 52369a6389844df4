// `webcap mcp` starts its sidecar process first thing (bin/webcap.js calls
// spawnEarlySidecar before the host's imports load), so Node and Playwright
// boot in the sidecar while the host loads; SidecarClient adopts the process
// instead of spawning its own. Only node: imports here: this module must load
// in a few milliseconds. An unadopted process (the config chose another
// provider, or the config failed to load) holds nothing: it is unref'd, and it
// exits when this process does (its stdin closes).
import { spawn, type ChildProcess } from 'node:child_process';

let early: { entry: string; child: ChildProcess } | undefined;

export function spawnEarlySidecar(entry: string): void {
  if (early) return;
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.on('error', () => undefined); // adoption checks it is alive; a failed one is simply not adopted
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
  early = { entry, child };
}

/** The early process if it runs `entry` and is still alive (once); else undefined and the caller spawns. */
export function adoptEarlySidecar(entry: string): ChildProcess | undefined {
  const e = early;
  early = undefined;
  if (!e || e.entry !== entry || e.child.exitCode !== null || e.child.signalCode !== null || e.child.pid === undefined) {
    e?.child.kill('SIGKILL');
    return undefined;
  }
  e.child.ref();
  for (const s of [e.child.stdin, e.child.stdout, e.child.stderr]) (s as unknown as { ref?: () => void } | null)?.ref?.();
  return e.child;
}
