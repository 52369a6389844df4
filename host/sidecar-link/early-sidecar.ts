// `webcap mcp` starts its sidecar process first thing (bin/webcap.js calls
// spawnEarlySidecar before the host's imports load), so Node and Playwright
// boot in the sidecar while the host loads; SidecarClient adopts the process
// instead of spawning its own. Only node: imports here: this module must load
// in a few milliseconds. An unadopted process (the config chose another
// provider, or the config failed to load) holds nothing: it is unref'd, and it
// exits when this process does (its stdin closes).
import { spawn, type ChildProcess } from 'node:child_process';

let early: { entry: string; child: ChildProcess; sentInit?: string } | undefined;

// vscode-jsonrpc's framing, written by hand for the two messages sent before the
// host's JSON-RPC connection exists (it adopts the stream afterwards).
const frame = (message: object) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
};

export function spawnEarlySidecar(entry: string): void {
  if (early) return;
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.on('error', () => undefined); // adoption checks it is alive; a failed one is simply not adopted
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
  early = { entry, child };
}

/**
 * Sends init and prelaunch to the early sidecar now (the config is read, the
 * host is not loaded yet), so Chromium starts launching at once. Init's answer
 * comes back on a request id the host's connection does not know and ignores;
 * the sidecar handles messages in order, so the host's first call runs after it.
 */
export function sendEarlyInit(init: unknown): void {
  if (!early || early.sentInit !== undefined || !early.child.stdin) return;
  early.child.stdin.write(frame({ id: 'webcap-early-init', method: 'webcap/init', params: init }));
  early.child.stdin.write(frame({ method: 'webcap/prelaunch', params: { spare: true } }));
  early.sentInit = JSON.stringify(init);
}


export function hasEarlySidecar(): boolean {
  return early !== undefined;
}

/**
 * The early process if it runs `entry`, is still alive and, when it already had
 * an init, had exactly `init` (once); `initSent` says the caller must not send
 * init again. Else undefined (a stale one is killed) and the caller spawns.
 */
export function adoptEarlySidecar(entry: string, init: unknown): { child: ChildProcess; initSent: boolean } | undefined {
  const e = early;
  early = undefined;
  const stale = e?.sentInit !== undefined && e.sentInit !== JSON.stringify(init);
  if (!e || stale || e.entry !== entry || e.child.exitCode !== null || e.child.signalCode !== null || e.child.pid === undefined) {
    e?.child.kill('SIGKILL');
    return undefined;
  }
  e.child.ref();
  for (const s of [e.child.stdin, e.child.stdout, e.child.stderr]) (s as unknown as { ref?: () => void } | null)?.ref?.();
  return { child: e.child, initSent: e.sentInit !== undefined };
}
