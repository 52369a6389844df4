// The one way the host reads a file from its workspace or config: profiles,
// the causal chain and its head file, caches, provider state, site profiles,
// the config file, plans, keys. A file on disk is data from a stranger:
// - webcap's own files are opened with O_NOFOLLOW (a link planted at their
//   name is refused, never read through); files a user names on the command
//   line (config, plan, public key) may be links (`followLinks: true`);
// - only regular files are read (O_NONBLOCK, so a FIFO cannot hang the open);
// - at most `maxBytes` are read; a bigger file is refused, not truncated;
// - every problem is invalid_params naming the file and the problem, never
//   any of its bytes (a JSON.parse message quotes the text it choked on).
//
// API:
//   readFileSafelySync(path, opts) / readFileSafely(path, opts)  → Buffer
//   readTextSafelySync(path, opts)                               → string
//   readJsonSafelySync(path, opts) / readJsonSafely(path, opts)  → unknown
//   readLinesSafelySync(path, opts)   → Generator of lines (bounded per line)
//   isMissingFile(err)                → the file does not exist
//   badFile(path, what, reason, problem) → the error, for shape checks after parsing
// opts: { what: 'profile' | 'causal chain' | …, maxBytes, followLinks? }.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { WebcapError } from '../../manifests/errors.js';

interface SafeReadOptions {
  /** The kind of file, for messages: "profile", "causal chain", "cache entry". */
  what: string;
  /** Larger files are refused (invalid_params, reason too_large). For lines: the bound per line. */
  maxBytes: number;
  /** Only for files the user named: a link there is the user's own choice. */
  followLinks?: boolean;
}

export const MiB = 1024 * 1024;

type BadFileReason = 'missing' | 'symlink' | 'not_a_file' | 'too_large' | 'empty' | 'truncated' | 'not_json' | 'bad_shape' | 'unreadable';

export function badFile(path: string, what: string, reason: BadFileReason, problem: string): WebcapError {
  return new WebcapError('invalid_params', `${what} ${path}: ${problem}`, { path, file: what, reason });
}

export function isMissingFile(err: unknown): boolean {
  return err instanceof WebcapError && err.details.reason === 'missing';
}

const flagsFor = (o: SafeReadOptions) => constants.O_RDONLY | constants.O_NONBLOCK | (o.followLinks ? 0 : constants.O_NOFOLLOW);

function openError(path: string, o: SafeReadOptions, err: unknown): WebcapError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return badFile(path, o.what, 'missing', 'no such file');
  if (code === 'ELOOP' || code === 'EMLINK') return badFile(path, o.what, 'symlink', 'a symbolic link; webcap does not follow links for its own files');
  if (code === 'EISDIR') return badFile(path, o.what, 'not_a_file', 'a folder, not a file');
  return badFile(path, o.what, 'unreadable', `unreadable (${code ?? 'error'})`);
}

function checkOpened(path: string, o: SafeReadOptions, info: { isFile(): boolean; size: number }): void {
  if (!info.isFile()) throw badFile(path, o.what, 'not_a_file', 'not a regular file');
  if (info.size > o.maxBytes) throw tooLarge(path, o, info.size);
}

const tooLarge = (path: string, o: SafeReadOptions, size?: number) =>
  badFile(path, o.what, 'too_large', `too large (${size === undefined ? 'over' : `${size} bytes,`} more than the ${o.maxBytes} bytes webcap reads from such a file)`);

// One byte more than the file's size: reading that byte means it grew after fstat.
const bufferFor = (size: number, o: SafeReadOptions) => Buffer.alloc(Math.min(o.maxBytes, size) + 1);

function filled(buf: Buffer, got: number, path: string, o: SafeReadOptions): Buffer {
  if (got > o.maxBytes) throw tooLarge(path, o);
  if (got === buf.length) throw badFile(path, o.what, 'unreadable', 'changed while being read; try again');
  return buf.subarray(0, got);
}

export function readFileSafelySync(path: string, o: SafeReadOptions): Buffer {
  let fd: number;
  try { fd = openSync(path, flagsFor(o)); } catch (err) { throw openError(path, o, err); }
  try {
    const info = fstatSync(fd);
    checkOpened(path, o, info);
    const buf = bufferFor(info.size, o);
    let got = 0;
    for (let n = -1; n !== 0 && got < buf.length;) { n = readSync(fd, buf, got, buf.length - got, null); got += n; }
    return filled(buf, got, path, o);
  } catch (err) {
    if (err instanceof WebcapError) throw err;
    throw openError(path, o, err);
  } finally { closeSync(fd); }
}

export async function readFileSafely(path: string, o: SafeReadOptions): Promise<Buffer> {
  let handle;
  try { handle = await open(path, flagsFor(o)); } catch (err) { throw openError(path, o, err); }
  try {
    const info = await handle.stat();
    checkOpened(path, o, info);
    const buf = bufferFor(info.size, o);
    let got = 0;
    for (let n = -1; n !== 0 && got < buf.length;) { n = (await handle.read(buf, got, buf.length - got, null)).bytesRead; got += n; }
    return filled(buf, got, path, o);
  } catch (err) {
    if (err instanceof WebcapError) throw err;
    throw openError(path, o, err);
  } finally { await handle.close(); }
}

export function readTextSafelySync(path: string, o: SafeReadOptions): string {
  return readFileSafelySync(path, o).toString('utf8');
}

/** JSON.parse whose error names the problem and position, never the text. */
export function parseJsonSafely(text: string, path: string, what: string): unknown {
  if (text.trim() === '') throw badFile(path, what, 'empty', 'empty');
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    if (/end of JSON input|Unterminated/i.test(message)) throw badFile(path, what, 'truncated', 'truncated (its JSON ends before it is complete)');
    const at = /position (\d+)/.exec(message)?.[1];
    if (at !== undefined && Number(at) >= text.trimEnd().length) throw badFile(path, what, 'truncated', 'truncated (its JSON ends before it is complete)');
    throw badFile(path, what, 'not_json', `not valid JSON${at ? ` (at byte ${at})` : ''}`);
  }
}

export function readJsonSafelySync(path: string, o: SafeReadOptions): unknown {
  return parseJsonSafely(readTextSafelySync(path, o), path, o.what);
}

export async function readJsonSafely(path: string, o: SafeReadOptions): Promise<unknown> {
  return parseJsonSafely((await readFileSafely(path, o)).toString('utf8'), path, o.what);
}

export interface Line { text: string; n: number; terminated: boolean }

/**
 * The lines of a file, read in chunks: a file of any length, each line at
 * most `maxBytes` (longer: invalid_params). `terminated` is false only for a
 * last line without its newline.
 */
export function* readLinesSafelySync(path: string, o: SafeReadOptions): Generator<Line> {
  let fd: number;
  try { fd = openSync(path, flagsFor(o)); } catch (err) { throw openError(path, o, err); }
  try {
    if (!fstatSync(fd).isFile()) throw badFile(path, o.what, 'not_a_file', 'not a regular file');
    const chunk = Buffer.alloc(Math.min(MiB, o.maxBytes + 1));
    let parts: Buffer[] = [];
    let held = 0;
    let n = 0;
    const lineTooLong = () => badFile(path, o.what, 'too_large', `too large (line ${n + 1} is longer than the ${o.maxBytes} bytes webcap reads as one line)`);
    for (let got = readSync(fd, chunk, 0, chunk.length, null); got > 0; got = readSync(fd, chunk, 0, chunk.length, null)) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a, 0); nl !== -1 && nl < got; nl = chunk.indexOf(0x0a, start)) {
        if (held + nl - start > o.maxBytes) throw lineTooLong();
        parts.push(Buffer.from(chunk.subarray(start, nl)));
        yield { text: Buffer.concat(parts).toString('utf8'), n: ++n, terminated: true };
        parts = []; held = 0; start = nl + 1;
      }
      held += got - start;
      if (held > o.maxBytes) throw lineTooLong();
      parts.push(Buffer.from(chunk.subarray(start, got)));
    }
    if (held > 0) yield { text: Buffer.concat(parts).toString('utf8'), n: ++n, terminated: false };
  } finally { closeSync(fd); }
}
