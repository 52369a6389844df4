// Where the daemon listens and whether a socket there is safe to talk to: the
// socket sits in the workspace, is owned by this user and nobody else may read
// or write it (0600). Anything else is refused rather than used: a socket
// another user controls could answer consent questions or read results.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import type { WebcapConfig } from '../config/types.js';

export function socketPath(config: Pick<WebcapConfig, 'workspace'>): string {
  return join(config.workspace.path, 'daemon.sock');
}

export function daemonLogPath(config: Pick<WebcapConfig, 'workspace'>): string {
  return join(config.workspace.path, 'daemon.log');
}

/** undefined: no socket there. Throws when one is there but is not ours alone. */
export function checkSocket(path: string): 'present' | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!st.isSocket()) throw new WebcapError('invalid_params', `${path} is not a socket; remove it to let webcap start its daemon`, { path });
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new WebcapError('invalid_params', `refusing the daemon socket ${path}: it belongs to uid ${st.uid}, not to you (uid ${uid}); remove it or use --no-daemon`, { path });
  if ((st.mode & 0o077) !== 0) throw new WebcapError('invalid_params', `refusing the daemon socket ${path}: its mode ${(st.mode & 0o777).toString(8)} lets others use it (want 600); remove it or use --no-daemon`, { path });
  return 'present';
}
