// Finds the last complete entry of a chain file without reading the whole file:
// a restarted host continues seq and prev_hash from it.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { WebcapError } from '../../manifests/errors.js';
import type { ChainEntry } from './entry.js';

export interface Tail {
  last: ChainEntry | null;
  /** False when the file ends in a torn line: the next write must start a new line. */
  endsWithNewline: boolean;
  /** Byte offset where an unterminated, unparseable last line (a torn write) starts; null if there is none. */
  tornFrom: number | null;
  /** File size when read. */
  size: number;
}

const CHUNK = 64 * 1024;
/** No entry is near this long (results are summarised); a longer line is refused, not loaded. */
export const CHAIN_LINE_MAX_BYTES = 64 * 1024 * 1024;
export const HEAD_FILE_MAX_BYTES = 64 * 1024;

export function parseEntry(line: string): ChainEntry | null {
  try {
    const v = JSON.parse(line) as Partial<ChainEntry> | null;
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof v.seq === 'number' && typeof v.hash === 'string') {
      return v as ChainEntry;
    }
  } catch { /* torn or foreign line */ }
  return null;
}

export function readTail(path: string): Tail {
  if (!existsSync(path)) return { last: null, endsWithNewline: true, tornFrom: null, size: 0 };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw new WebcapError('invalid_params', `causal chain ${path}: cannot be opened (${(err as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symbolic link; webcap does not follow links for its own files' : (err as NodeJS.ErrnoException).code})`, { path, reason: 'unreadable' });
  }
  try {
    if (!fstatSync(fd).isFile()) throw new WebcapError('invalid_params', `causal chain ${path}: not a regular file`, { path, reason: 'not_a_file' });
    const size = fstatSync(fd).size;
    if (size === 0) return { last: null, endsWithNewline: true, tornFrom: null, size };
    const lastByte = Buffer.alloc(1);
    readSync(fd, lastByte, 0, 1, size - 1);
    const endsWithNewline = lastByte[0] === 0x0a;
    let tornFrom: number | null = null;
    if (!endsWithNewline) {
      const start = lastLineStart(fd, size);
      // A last line longer than any entry is torn by definition: not loaded to find out.
      if (size - start > CHAIN_LINE_MAX_BYTES) tornFrom = start;
      else {
        const buf = Buffer.alloc(size - start);
        readSync(fd, buf, 0, buf.length, start);
        if (!parseEntry(buf.toString('utf8'))) tornFrom = start;
      }
    }
    // Grow a window back from the end until it holds a parseable entry.
    for (let window = Math.min(CHUNK, size); ; window = Math.min(window * 4, size)) {
      if (window > 2 * CHAIN_LINE_MAX_BYTES) throw new WebcapError('invalid_params', `causal chain ${path}: no complete entry in its last ${2 * CHAIN_LINE_MAX_BYTES} bytes; it is not a chain webcap can continue (move it aside)`, { path, reason: 'bad_shape' });
      const buf = Buffer.alloc(window);
      readSync(fd, buf, 0, window, size - window);
      const lines = splitLines(buf);
      if (window < size) lines.shift(); // may start mid-line (and mid-character)
      for (let i = lines.length - 1; i >= 0; i--) {
        // A last line that parses but lacks its newline is complete JSON: it
        // joins the chain (verify agrees), only the newline is added later.
        const entry = parseEntry(lines[i].toString('utf8'));
        if (entry) return { last: entry, endsWithNewline, tornFrom, size };
      }
      if (window === size) return { last: null, endsWithNewline, tornFrom, size };
    }
  } finally {
    closeSync(fd);
  }
}

/** Offset just after the last newline (0 if there is none). */
function lastLineStart(fd: number, size: number): number {
  const buf = Buffer.alloc(CHUNK);
  for (let end = size; end > 0; end -= CHUNK) {
    const from = Math.max(0, end - CHUNK);
    const n = readSync(fd, buf, 0, end - from, from);
    const i = buf.subarray(0, n).lastIndexOf(0x0a);
    if (i !== -1) return from + i + 1;
  }
  return 0;
}

// Split on the newline byte, not on decoded text: a window can start inside a
// multi-byte character, and only the first (dropped) line is affected.
function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, start)) {
    out.push(buf.subarray(start, i));
    start = i + 1;
  }
  out.push(buf.subarray(start));
  return out;
}
