// The sidecar reads and writes files only under the workspace. Paths an agent
// gives are resolved here, once, for every tool that touches the disk.
import { readdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { WebcapError } from '../manifests/errors.js';

function inside(root: string, full: string): boolean {
  const rel = relative(root, full);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Where to write a file a tool produces: `wanted` (relative to `folder` under
 * the workspace, or absolute) or a generated name. The file must land inside
 * the tool's own folder, not merely the workspace: the workspace also holds
 * the causal chain, the log and the cache, which a screenshot or a saved page
 * must never overwrite. `exts` are the endings allowed (first = default when
 * `wanted` has none). Anything else is invalid_params.
 */
export function outputPath(workspace: string, folder: string, wanted: string | undefined, fallbackName: string, exts: readonly string[], capability: string, field = 'path'): string {
  const base = resolve(workspace, folder);
  const full = wanted === undefined ? resolve(base, fallbackName) : isAbsolute(wanted) ? resolve(wanted) : resolve(base, wanted);
  if (full === base || !inside(base, full) || !realInside(base, full)) {
    throw new WebcapError('invalid_params', `${capability}: path "${wanted}" must be a file inside ${base} (the ${folder} folder of the workspace)`, { field, path: wanted });
  }
  const ext = extname(full).toLowerCase();
  if (!ext) return `${full}.${exts[0]}`;
  if (!exts.includes(ext.slice(1))) {
    throw new WebcapError('invalid_params', `${capability}: path "${wanted}" must end in ${exts.map((e) => `.${e}`).join(' or ')}`, { field, path: wanted });
  }
  return full;
}

/**
 * The nearest part of `full` that exists, with symlinks followed, is still
 * inside `base`: a link planted in the folder cannot redirect a write.
 */
function realInside(base: string, full: string): boolean {
  let probe = full;
  while (probe !== base && !existsSync(probe) && inside(base, dirname(probe))) probe = dirname(probe);
  if (!existsSync(probe) || !existsSync(base)) return true; // nothing on disk yet to redirect the write
  return inside(realpathSync(base), realpathSync(probe));
}

/** Files webcap itself keeps (chain, log, cache): never handed to a page, never overwritten by a tool. */
interface ProtectedFiles { workspace: string; chain_path?: string; log_path?: string }

function protectedReason(files: ProtectedFiles, real: string): string | undefined {
  const same = (p: string | undefined) => p !== undefined && [resolve(p), realOr(p)].some((q) => real === q || real.startsWith(`${q}.`));
  if (same(files.chain_path)) return 'the causal chain';
  if (same(files.log_path)) return 'the webcap log';
  const cache = join(files.workspace, 'cache');
  if ([resolve(cache), realOr(cache)].some((c) => inside(c, real))) return 'the webcap cache';
  return undefined;
}

/** Which of webcap's own files (chain and its lock/head files, log, any cache file) is this same inode, if any. */
async function hardLinkedTo(files: ProtectedFiles, file: Stats): Promise<string | undefined> {
  const same = async (p: string | undefined) => {
    if (!p) return false;
    const s = await stat(p).catch(() => null);
    return s !== null && s.dev === file.dev && s.ino === file.ino;
  };
  if (files.chain_path && (await same(files.chain_path) || await same(`${files.chain_path}.head.json`))) return 'the causal chain';
  if (await same(files.log_path)) return 'the webcap log';
  const cache = join(files.workspace, 'cache');
  const inCache = await readdir(cache, { recursive: true }).catch(() => [] as string[]);
  for (const name of inCache) if (await same(join(cache, name))) return 'the webcap cache';
  return undefined;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * A file to read from the workspace (web.upload): relative paths are taken
 * from the workspace root. Symlinks are followed before the check, so a link
 * inside the workspace cannot hand out a file from elsewhere.
 */
export async function workspaceFile(files: ProtectedFiles, wanted: string, capability: string, field: string): Promise<string> {
  const { workspace } = files;
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
  // Uploading the audit trail (or cached pages) to a website must not be possible.
  const kept = protectedReason(files, real);
  if (kept) throw new WebcapError('invalid_params', `${capability}: "${wanted}" is ${kept}, which webcap keeps for itself and never uploads`, { field, path: wanted });
  const info = await stat(real);
  if (!info.isFile()) {
    throw new WebcapError('invalid_params', `${capability}: "${wanted}" is not a regular file`, { field, path: wanted });
  }
  // A hard link is another name for the same file: compare device + inode, not paths.
  const linked = info.nlink > 1 ? await hardLinkedTo(files, info) : undefined;
  if (linked) throw new WebcapError('invalid_params', `${capability}: "${wanted}" is a hard link to ${linked}, which webcap keeps for itself and never uploads`, { field, path: wanted });
  return real;
}

/** lstat, not exists: a dangling symlink takes a name too. */
function nameTaken(path: string): boolean {
  try { lstatSync(path); return true; } catch { return false; }
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
  for (let i = 1; nameTaken(candidate) || taken(candidate); i++) candidate = join(folder, `${stem}-${i}${ext}`);
  return candidate;
}
