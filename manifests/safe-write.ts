// The one way webcap puts a file on disk, host and sidecar alike (profiles,
// head files, caches, reports, exported plans, `.bak` copies, screenshots,
// downloads). Checked at the write, not just on the path string:
// - no folder on the way from `root` to the file may be a symbolic link
//   (`root` itself is trusted: the workspace, or the folder a user named);
// - the bytes go to a fresh file (O_CREAT|O_EXCL|O_NOFOLLOW, a random name in
//   the same folder) that is then renamed onto the final name. A rename
//   replaces a name; it never writes through it, so a link planted at the
//   final name (symbolic, dangling or not, or hard) cannot carry the bytes
//   outside;
// - an existing symlink, non-file or hard-linked file at the final name is
//   refused outright (invalid_params), so the user hears about it.
//
// API (everything else here is the machinery behind it):
//   writeFileSafely(path, data, { root?, mode?, durable?, what? })      async
//   writeFileSafelySync(path, data, { root?, mode?, durable?, what? })  sync
//     root: where the link check starts (default: the file's own folder);
//     mode: of a new file (default 0o644; keep 0o600 for secrets);
//     durable: fsync the file and its folder before returning;
//     what: how the error names the writer ("profiles", "webcap report").
//   writeInWorkspace(workspace, path, what, write(tmp))  for writers that take
//     a path (Playwright's saveAs); writeBytesInWorkspace for bytes.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { WebcapError } from './errors.js';

const CREATE_FRESH = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

interface SafeWriteOptions {
  /** The folder the link check starts from (trusted itself). Default: the file's folder. */
  root?: string;
  /** Permission bits of the new file. Default 0o644. */
  mode?: number;
  /** fsync the file and its folder before returning (head files, profiles). */
  durable?: boolean;
  /** Who writes, for the error message. Default "webcap". */
  what?: string;
}

function refused(what: string, path: string, why: string): WebcapError {
  return new WebcapError('invalid_params', `${what}: will not write ${path}: ${why}; webcap never writes through a link`, { field: 'path', path, reason: 'unsafe_path' });
}

/** The folders between root and folder, in order, refusing a `..` escape. */
function stepsBelow(root: string, folder: string, what: string): string[] {
  const out: string[] = [];
  let at = root;
  for (const part of relative(root, resolve(folder)).split(sep).filter(Boolean)) {
    if (part === '..') throw refused(what, folder, 'it is outside the workspace');
    at = `${at}${sep}${part}`;
    out.push(at);
  }
  return out;
}

type Info = { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean; nlink: number } | null;

function checkFolder(what: string, at: string, info: Info): void {
  if (info?.isSymbolicLink()) throw refused(what, at, 'the folder is a symbolic link');
  if (!info?.isDirectory()) throw refused(what, at, 'it is not a folder');
}

/** The final name must be free, or an ordinary file with no other hard link. */
function checkTargetInfo(what: string, path: string, info: Info): void {
  if (!info) return;
  if (info.isSymbolicLink()) throw refused(what, path, 'it is a symbolic link');
  if (!info.isFile()) throw refused(what, path, 'it is not a regular file');
  if (info.nlink > 1) throw refused(what, path, `it is a hard link (${info.nlink} names for one file)`);
}

const lstatOrNull = (p: string) => lstat(p).catch(() => null);
function lstatOrNullSync(p: string): Info { try { return lstatSync(p); } catch { return null; } }

/** Creates the folders from `workspace` down to `folder`, refusing any that is (or already was) a symlink. */
export async function realFolder(workspace: string, folder: string, what: string, mode?: number): Promise<void> {
  const root = resolve(workspace);
  await mkdir(root, { recursive: true, mode });
  for (const at of stepsBelow(root, folder, what)) {
    const info = await lstatOrNull(at);
    if (!info) await mkdir(at, { mode }).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'EEXIST') throw e; });
    checkFolder(what, at, info ?? await lstatOrNull(at));
  }
}

function realFolderSync(workspace: string, folder: string, what: string, mode?: number): void {
  const root = resolve(workspace);
  mkdirSync(root, { recursive: true, mode });
  for (const at of stepsBelow(root, folder, what)) {
    const info = lstatOrNullSync(at);
    if (!info) { try { mkdirSync(at, { mode }); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; } }
    checkFolder(what, at, info ?? lstatOrNullSync(at));
  }
}

const tempNameFor = (path: string) => `${dirname(path)}${sep}.webcap-${randomBytes(6).toString('hex')}.tmp`;

function syncFolder(folder: string): void {
  try { const fd = openSync(folder, 'r'); try { fsyncSync(fd); } finally { closeSync(fd); } } catch { /* not every platform can */ }
}

/**
 * Writes a file through `write(tmp)` (bytes, or a writer that takes a path,
 * such as Playwright's saveAs) into `path` under `workspace`, safely (see the
 * header). The temp file exists (empty, ours) before `write` runs.
 */
export async function writeInWorkspace(workspace: string, path: string, what: string, write: (tmp: string) => Promise<void>, mode = 0o644): Promise<void> {
  await realFolder(workspace, dirname(path), what);
  checkTargetInfo(what, path, await lstatOrNull(path));
  const tmp = tempNameFor(path);
  await (await open(tmp, CREATE_FRESH, mode)).close();
  try {
    await write(tmp);
    const made = await lstat(tmp);
    if (!made.isFile() || made.nlink !== 1) throw refused(what, path, 'its temporary file was replaced while being written');
    checkTargetInfo(what, path, await lstatOrNull(path));
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** writeInWorkspace for bytes already in memory. */
export function writeBytesInWorkspace(workspace: string, path: string, what: string, data: Buffer | string, mode = 0o644, durable = false): Promise<void> {
  return writeInWorkspace(workspace, path, what, async (tmp) => {
    const file = await open(tmp, constants.O_WRONLY | constants.O_NOFOLLOW);
    try { await file.writeFile(data); if (durable) await file.sync(); } finally { await file.close(); }
  }, mode);
}

/** Writes `data` to `path` safely (see the header); async. */
export async function writeFileSafely(path: string, data: Buffer | string, options: SafeWriteOptions = {}): Promise<void> {
  const full = resolve(path);
  await writeBytesInWorkspace(options.root ?? dirname(full), full, options.what ?? 'webcap', data, options.mode, options.durable);
  if (options.durable) syncFolder(dirname(full));
}

/** Writes `data` to `path` safely (see the header); for callers that cannot await (the chain's locked append). */
export function writeFileSafelySync(path: string, data: Buffer | string, options: SafeWriteOptions = {}): void {
  const full = resolve(path);
  const what = options.what ?? 'webcap';
  realFolderSync(options.root ?? dirname(full), dirname(full), what);
  checkTargetInfo(what, full, lstatOrNullSync(full));
  const tmp = tempNameFor(full);
  const fd = openSync(tmp, CREATE_FRESH, options.mode ?? 0o644);
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
      if (options.durable) fsyncSync(fd);
    } finally { closeSync(fd); }
    checkTargetInfo(what, full, lstatOrNullSync(full));
    renameSync(tmp, full);
  } catch (err) {
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw err;
  }
  if (options.durable) syncFolder(dirname(full));
}

/** Does anything (a file, a folder, a link, dangling or not) have this name? existsSync follows links and says no to a dangling one. */
export async function nameTaken(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null)) !== null;
}
