// A step's screenshot goes into the report only if it is a file inside the
// workspace: a chain entry pointing at /etc/passwd, or at a link (or a folder
// link) leading out of the workspace, is named in the report, not embedded.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { MiB, readFileSafelySync } from '../files/safe-read.js';

export interface Screenshot { path: string; type?: string; base64?: string; not_embedded?: string }

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

const realOrNull = (p: string) => { try { return realpathSync(p); } catch { return null; } };

export function embedScreenshot(path: string, workspace: string): Screenshot {
  const type = TYPES[/\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''];
  if (!type) return { path, not_embedded: 'not a .png or .jpeg file' };
  const root = realOrNull(resolve(workspace));
  const full = resolve(workspace, path);
  const folder = realOrNull(dirname(full));
  // The folders on the way are resolved; the file itself is opened without following a link.
  const real = folder && join(folder, basename(full));
  if (!root || !real || !inside(root, real)) return { path, not_embedded: 'outside the workspace' };
  try {
    return { path, type, base64: readFileSafelySync(real, { what: 'screenshot', maxBytes: 32 * MiB }).toString('base64') };
  } catch (err) {
    return { path, not_embedded: err instanceof WebcapError && err.details.reason === 'missing' ? 'the file is gone' : 'not a plain file webcap can embed (a link, or too large)' };
  }
}
