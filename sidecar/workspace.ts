// The sidecar reads and writes files only under the workspace. Paths an agent
// gives are resolved here, once, for every tool that touches the disk.
import { realpath, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { WebcapError } from '../manifests/errors.js';

function inside(root: string, full: string): boolean {
  const rel = relative(root, full);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Where to write a file a tool produces: `wanted` (relative to `folder` under
 * the workspace, or absolute inside the workspace) or a generated name. A path
 * that leaves the workspace is invalid_params.
 */
export function outputPath(workspace: string, folder: string, wanted: string | undefined, fallbackName: string, ext: string, capability: string, field = 'path'): string {
  const base = join(workspace, folder);
  const full = wanted === undefined ? resolve(base, fallbackName) : isAbsolute(wanted) ? resolve(wanted) : resolve(base, wanted);
  if (!inside(resolve(workspace), full)) {
    throw new WebcapError('invalid_params', `${capability}: path "${wanted}" is outside the workspace (${workspace})`, { field });
  }
  return extname(full) ? full : `${full}.${ext}`;
}

/**
 * A file to read from the workspace (web.upload): relative paths are taken
 * from the workspace root. Symlinks are followed before the check, so a link
 * inside the workspace cannot hand out a file from elsewhere.
 */
export async function workspaceFile(workspace: string, wanted: string, capability: string, field: string): Promise<string> {
  const root = await realpath(workspace).catch(() => resolve(workspace));
  const asked = isAbsolute(wanted) ? resolve(wanted) : resolve(root, wanted);
  const outside = () => new WebcapError('invalid_params', `${capability}: "${wanted}" is outside the workspace (${workspace}); only files under the workspace can be used`, { field, path: wanted });
  if (!inside(root, asked) && !inside(resolve(workspace), asked)) throw outside();
  let real: string;
  try {
    real = await realpath(asked);
  } catch {
    throw new WebcapError('invalid_params', `${capability}: no file "${wanted}" in the workspace (${workspace})`, { field, path: wanted });
  }
  if (!inside(root, real)) throw outside();
  if (!(await stat(real)).isFile()) {
    throw new WebcapError('invalid_params', `${capability}: "${wanted}" is not a regular file`, { field, path: wanted });
  }
  return real;
}

/** A file name a page suggested, made safe to write: no folders, no control characters, not hidden, not empty. */
export function safeFileName(suggested: string, fallback = 'download'): string {
  const name = basename(suggested.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .slice(0, 200);
  return name || fallback;
}

/**
 * `name` in `folder`, or name-1, name-2 … if taken (on disk, or by `taken`: a
 * download still being written): a download never overwrites an earlier one.
 */
export function freePath(folder: string, name: string, taken: (path: string) => boolean = () => false): string {
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  let candidate = join(folder, name);
  for (let i = 1; existsSync(candidate) || taken(candidate); i++) candidate = join(folder, `${stem}-${i}${ext}`);
  return candidate;
}
