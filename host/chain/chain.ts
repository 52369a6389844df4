// The causal chain: an append-only JSONL file where each entry carries the hash
// of the one before, so any later edit, deletion, insertion or reordering is
// detectable (verify.ts).
//
// Concurrency: within one process there is exactly ONE CausalChain per file
// path (a module-level map; open() returns the existing instance), and its
// appends go through a promise queue, so lines never interleave and seq /
// prev_hash stay consistent. Two *processes* writing one file are not
// supported: their chains would fork (verify then reports the first fork).
//
// Crash safety: append() resolves only after write + fdatasync. A crash mid-write
// can leave a torn last line (no trailing newline). On open we continue from
// the last complete entry and start our next line on a fresh line, so the torn
// fragment stays in the file but out of the chain; verify skips it.
import { mkdirSync, openSync, fsyncSync, closeSync, writeSync, fdatasyncSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { hashEntry, toPlainJson, ZERO_HASH, type ChainAppend, type ChainEntry } from './entry.js';
import { readTail } from './tail.js';

export type { ChainAppend, ChainEntry, ChainKind, ChainDecision, ChainError } from './entry.js';

const open_chains = new Map<string, Promise<CausalChain>>();

export class CausalChain {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Hosts in one process may share a chain file: the file closes when the last of them closes. */
  private users = 0;

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private seq: number,
    private prevHash: string,
    /** True when the file does not end with '\n' (torn tail, or a failed write). */
    private needsNewline: boolean,
  ) {}

  /** Opens (creating the folder and file) or shares the instance already open for this path; each open() needs its close(). */
  static open(path: string): Promise<CausalChain> {
    const abs = resolve(path);
    let chain = open_chains.get(abs);
    if (!chain) {
      chain = CausalChain.openFresh(abs);
      open_chains.set(abs, chain);
      chain.catch(() => open_chains.delete(abs));
    }
    return chain.then((c) => { c.users += 1; return c; });
  }

  private static async openFresh(abs: string): Promise<CausalChain> {
    mkdirSync(dirname(abs), { recursive: true });
    const handle = await open(abs, 'a');
    const { size } = await handle.stat();
    if (size === 0) syncDir(dirname(abs));
    const tail = readTail(abs);
    const last = tail.last;
    return new CausalChain(abs, handle, last?.seq ?? 0, last?.hash ?? ZERO_HASH, !tail.endsWithNewline);
  }

  get lastSeq(): number { return this.seq; }
  get lastHash(): string { return this.prevHash; }

  /** Appends one entry; resolves once it is on disk. Appends are applied in call order. */
  append(partial: ChainAppend): Promise<ChainEntry> {
    const run = this.queue.then(() => this.write(partial));
    this.queue = run.catch(() => undefined); // one failed append must not wedge the queue
    return run;
  }

  private async write(partial: ChainAppend): Promise<ChainEntry> {
    if (this.closed) throw new Error(`causal chain ${this.path} is closed`);
    const body: Omit<ChainEntry, 'hash'> = {
      seq: this.seq + 1,
      ts: new Date().toISOString(),
      kind: partial.kind,
      plan_id: partial.plan_id ?? null,
      session: partial.session ?? null,
      capability: partial.capability ?? null,
      params: toPlainJson(partial.params ?? null),
      decision: (toPlainJson(partial.decision ?? null) as ChainEntry['decision']),
      decisions: (toPlainJson(partial.decisions ?? []) as ChainEntry['decisions']),
      result: toPlainJson(partial.result ?? null),
      error: (toPlainJson(partial.error ?? null) as ChainEntry['error']),
      duration_ms: partial.duration_ms ?? null,
      ...(partial.via ? { via: { ...partial.via } } : {}),
      prev_hash: this.prevHash,
    };
    const entry: ChainEntry = { ...body, hash: hashEntry(body) };
    const line = (this.needsNewline ? '\n' : '') + JSON.stringify(entry) + '\n';
    const bytes = Buffer.from(line, 'utf8');
    try {
      // Synchronous on purpose: one small write and an fdatasync (~0.25 ms here)
      // cost less than two trips through libuv's thread pool, and appends are
      // serialised by the queue anyway. fdatasync: data + size, all a reader needs.
      for (let off = 0; off < bytes.length; ) off += writeSync(this.handle.fd, bytes, off);
      fdatasyncSync(this.handle.fd);
    } catch (err) {
      // Some bytes may be on disk: the next line must start fresh. seq/hash stay put.
      this.needsNewline = true;
      throw err;
    }
    this.needsNewline = false;
    this.seq = entry.seq;
    this.prevHash = entry.hash;
    return entry;
  }

  /** Waits for pending appends, closes the file and forgets the instance (a later open() re-reads the file). */
  async close(): Promise<void> {
    if (this.closed) return;
    if (--this.users > 0) return;
    await this.queue;
    this.closed = true;
    open_chains.delete(this.path);
    await this.handle.close();
  }
}

// A new file's directory entry must be durable too, or a crash can lose the whole file.
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch { /* not supported on every platform (Windows); best effort */ }
}
