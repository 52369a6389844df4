// How every file webcap writes (a tool's output, a plan and its .bak) gets
// into its folder, checked at the write, not just on the path string
// (sidecar/workspace.ts): no folder on the way
// from the workspace to the file may be a symbolic link, and the bytes go to a
// fresh file (O_CREAT|O_EXCL|O_NOFOLLOW, a random name in the same folder)
// that is then renamed onto the final name. A rename replaces a name; it never
// writes through it, so a link planted at the final name (symbolic, dangling or
// not, or hard) cannot carry the bytes outside. An existing symlink or
// hard-linked file at the final name is refused outright, so the user hears
// about it.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { WebcapError } from './errors.js';

const CREATE_FRESH = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function refused(capability: string, path: string, why: string): WebcapError {
  return new WebcapError('invalid_params', `${capability}: will not write ${path}: ${why}; webcap never writes through a link`, { field: 'path', path });
}

/** Creates the folders from `workspace` down to `folder`, refusing any that is (or already was) a symlink. */
export async function realFolder(workspace: string, folder: string, capability: string): Promise<void> {
  const root = resolve(workspace);
  await mkdir(root, { recursive: true });
  let at = root;
  for (const part of relative(root, resolve(folder)).split(sep).filter(Boolean)) {
    if (part === '..') throw refused(capability, folder, 'it is outside the workspace');
    at = `${at}${sep}${part}`;
    const info = await lstat(at).catch(() => null);
    if (!info) await mkdir(at).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'EEXIST') throw e; });
    const now = info ?? await lstat(at);
    if (now.isSymbolicLink()) throw refused(capability, at, 'the folder is a symbolic link');
    if (!now.isDirectory()) throw refused(capability, at, 'it is not a folder');
  }
}

/** The final name must be free, or an ordinary file with no other hard link. */
async function checkTarget(path: string, capability: string): Promise<void> {
  const info = await lstat(path).catch(() => null);
  if (!info) return;
  if (info.isSymbolicLink()) throw refused(capability, path, 'it is a symbolic link');
  if (!info.isFile()) throw refused(capability, path, 'it is not a regular file');
  if (info.nlink > 1) throw refused(capability, path, `it is a hard link (${info.nlink} names for one file)`);
}

/**
 * Writes a file through `write(tmp)` (bytes, or a writer that takes a path,
 * such as Playwright's saveAs) into `path` under `workspace`, safely (see the
 * header). The temp file exists (empty, ours) before `write` runs.
 */
export async function writeInWorkspace(workspace: string, path: string, capability: string, write: (tmp: string) => Promise<void>): Promise<void> {
  await realFolder(workspace, dirname(path), capability);
  await checkTarget(path, capability);
  const tmp = `${dirname(path)}${sep}.webcap-${randomBytes(6).toString('hex')}.tmp`;
  await (await open(tmp, CREATE_FRESH, 0o644)).close();
  try {
    await write(tmp);
    const made = await lstat(tmp);
    if (!made.isFile() || made.nlink !== 1) throw refused(capability, path, 'its temporary file was replaced while being written');
    await checkTarget(path, capability);
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** writeInWorkspace for bytes already in memory. */
export function writeBytesInWorkspace(workspace: string, path: string, capability: string, data: Buffer | string): Promise<void> {
  return writeInWorkspace(workspace, path, capability, async (tmp) => {
    const file = await open(tmp, constants.O_WRONLY | constants.O_NOFOLLOW);
    try { await file.writeFile(data); } finally { await file.close(); }
  });
}

/** Does anything (a file, a folder, a link, dangling or not) have this name? existsSync follows links and says no to a dangling one. */
export async function nameTaken(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null)) !== null;
}
