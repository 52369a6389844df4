// The causal chain: an append-only JSONL file where each entry carries the hash
// of the one before, so any later edit, deletion, insertion or reordering is
// detectable (verify.ts). It is the host's write-ahead log: a call's `intent`
// entry is durable before its effect starts (policies/write-ahead.ts).
//
// Concurrency: within one process there is ONE CausalChain per file path (a
// module-level map) whose appends go through a promise queue. Across processes
// every append holds the chain's lock (lock.ts) and, when the file grew since
// this process last wrote, re-reads the tail first, so seq / prev_hash
// continue whoever wrote last and the chain never forks.
//
// Durability: append() resolves after write + fdatasync, except appends made
// with { durable: false } (a call's result entry, which follows its durable
// intent): those are written to the OS at once, so they survive a crash of
// this process, and reach the disk with the next durable append, a timer
// (LAZY_SYNC_MS, its fdatasync off the event loop) or close(). One fdatasync per call on the critical path (none
// for a call that only reads the open page: policies/write-ahead.ts).
//
// Torn tails: a crash mid-write leaves an unterminated, unparseable last line.
// That entry's append never resolved, so nothing acted on it; the next writer
// cuts it off and records what it cut (bytes and sha256) in a `torn_tail`
// event, so every line of the file stays a chain entry (verify.ts).
import { createHash } from 'node:crypto';
import { closeSync, constants, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { CHECKPOINT_EVERY, writeHeadFile, type Signer } from './checkpoint.js';
import { hashEntry, toPlainJson, ZERO_HASH, type ChainAppend, type ChainEntry } from './entry.js';
import { acquireChainLock, lockPathOf } from './lock.js';
import { readTail } from './tail.js';

export type { ChainAppend, ChainEntry, ChainKind, ChainDecision, ChainError } from './entry.js';

/** A result entry written without fdatasync reaches the disk at the latest this long after. */
const LAZY_SYNC_MS = 200;

export interface ChainOptions {
  /** Signs a checkpoint every `checkpointEvery` entries and at close ([chain] signing_key_env). */
  signer?: Signer;
  checkpointEvery?: number;
}

export interface AppendOptions {
  /** false: write now, fdatasync later (see the header). Default true. */
  durable?: boolean;
}

const open_chains = new Map<string, Promise<CausalChain>>();

export class CausalChain {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Hosts in one process may share a chain file: the file closes when the last of them closes. */
  private users = 0;
  private seq = 0;
  private prevHash = ZERO_HASH;
  /** File size after our last write; -1 = unknown, re-read the tail under the lock. */
  private knownSize = -1;
  private dirty = false;
  private syncTimer: NodeJS.Timeout | undefined;
  /** The timer's fdatasync while it runs (close() waits for it before the file closes). */
  private backgroundSync: Promise<void> | undefined;
  /** Entries this process wrote since its last checkpoint (a close adds one only if > 0). */
  private sinceCheckpoint = 0;
  private lockPath: string | undefined;

  private constructor(readonly path: string, private handle: FileHandle, private readonly options: ChainOptions) {}

  /** Opens (creating the folder and file) or shares the instance already open for this path; each open() needs its close(). */
  static open(path: string, options: ChainOptions = {}): Promise<CausalChain> {
    const abs = resolve(path);
    let chain = open_chains.get(abs);
    if (!chain) {
      chain = CausalChain.openFresh(abs, options);
      open_chains.set(abs, chain);
      chain.catch(() => open_chains.delete(abs));
    }
    return chain.then((c) => { c.users += 1; return c; });
  }

  private static async openFresh(abs: string, options: ChainOptions): Promise<CausalChain> {
    try {
      mkdirSync(dirname(abs), { recursive: true });
      // Never through a link planted at the chain's name: an append there would write outside.
      const handle = await open(abs, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o666);
      const { size, isFile } = await handle.stat().then((st) => ({ size: st.size, isFile: st.isFile() }));
      if (!isFile) { await handle.close(); throw new Error('it is not a regular file'); }
      if (size === 0) syncDir(dirname(abs));
      return new CausalChain(abs, handle, options);
    } catch (err) {
      throw unwritable(abs, err, 'cannot open');
    }
  }

  get lastSeq(): number { return this.seq; }
  get lastHash(): string { return this.prevHash; }

  /** Appends one entry; resolves once it is written (and, unless durable: false, on disk). Appends apply in call order. */
  append(partial: ChainAppend, options: AppendOptions = {}): Promise<ChainEntry> {
    const written = this.enqueue(() => this.locked(() => this.write(partial, options.durable ?? true)));
    if (this.watchers.size) void written.then((e) => { for (const w of this.watchers) { try { w(e); } catch { /* a viewer must not break the chain */ } } }, () => undefined);
    return written;
  }

  /** Each entry this process writes, once written (the console's live chain view); returns the unsubscribe. */
  watch(watcher: (entry: ChainEntry) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
  private readonly watchers = new Set<(entry: ChainEntry) => void>();

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => undefined); // one failed append must not wedge the queue
    return run;
  }

  private async locked<T>(job: () => T): Promise<T> {
    if (this.closed) throw new Error(`causal chain ${this.path} is closed`);
    this.lockPath ??= lockPathOf(this.path);
    const release = await acquireChainLock(this.path, this.lockPath);
    try {
      this.catchUp();
      return job();
    } finally {
      release();
    }
  }

  /** Under the lock: if another process (or a failed write) changed the file, continue from its real tail. */
  private catchUp(): void {
    const size = fstatSync(this.handle.fd).size;
    if (size === this.knownSize) return;
    const tail = readTail(this.path);
    this.seq = tail.last?.seq ?? 0;
    this.prevHash = tail.last?.hash ?? ZERO_HASH;
    this.knownSize = tail.size;
    if (tail.tornFrom !== null) this.cutTornTail(tail.tornFrom, tail.size);
    else if (!tail.endsWithNewline) this.writeBytes(Buffer.from('\n')); // a complete last entry missing only its newline
  }

  private cutTornTail(from: number, size: number): void {
    // Hashed in chunks: the fragment may be any length.
    const digest = createHash('sha256');
    const chunk = Buffer.alloc(Math.min(size - from, 1 << 20));
    const fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      for (let at = from; at < size;) {
        const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
        if (n <= 0) break;
        digest.update(chunk.subarray(0, n));
        at += n;
      }
    } finally { closeSync(fd); }
    this.truncate(from);
    this.write({ kind: 'event', result: { event: 'torn_tail', note: 'an interrupted write left an incomplete last line; it was cut off (its append never completed, so nothing acted on it)', bytes: size - from, sha256: digest.digest('hex') } }, true);
  }

  private write(partial: ChainAppend, durable: boolean): ChainEntry {
    const entry = this.entryFor(partial);
    this.writeBytes(Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8'));
    if (durable) this.sync();
    else this.syncSoon();
    this.seq = entry.seq;
    this.prevHash = entry.hash;
    if (partial.kind !== 'checkpoint') this.sinceCheckpoint++;
    if (this.options.signer && partial.kind !== 'checkpoint' && entry.seq % (this.options.checkpointEvery ?? CHECKPOINT_EVERY) === 0) this.checkpoint();
    return entry;
  }

  private entryFor(partial: ChainAppend): ChainEntry {
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
      ...(partial.intent_seq === undefined ? {} : { intent_seq: partial.intent_seq }),
      prev_hash: this.prevHash,
    };
    return { ...body, hash: hashEntry(body) };
  }

  /** Synchronous on purpose: one small write costs less than a trip through libuv's thread pool, and appends are serialised anyway. */
  private writeBytes(bytes: Buffer): void {
    const before = this.knownSize;
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(this.handle.fd, bytes, off);
    } catch (err) {
      // Part of the line may be on disk: take it back, or leave it for the next catchUp() to cut.
      try { this.truncate(before); } catch { this.knownSize = -1; }
      throw unwritable(this.path, err, 'cannot write');
    }
    this.knownSize = before + bytes.length;
  }

  private truncate(size: number): void {
    ftruncateSync(this.handle.fd, size);
    this.knownSize = size;
  }

  /** fdatasync: data + size, all a reader needs. Also makes earlier lazy writes durable. */
  private sync(): void {
    try {
      fdatasyncSync(this.handle.fd);
    } catch (err) {
      throw unwritable(this.path, err, 'cannot sync');
    }
    this.dirty = false;
  }

  private syncSoon(): void {
    this.dirty = true;
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.syncInBackground();
    }, LAZY_SYNC_MS);
    this.syncTimer.unref();
  }

  /**
   * The timer's fdatasync runs in libuv's thread pool, not on the event loop: on a busy disk it takes
   * milliseconds, and a call in flight (a snapshot waiting for its answer) must not wait for it. It makes
   * durable what was written before it started; a write during it marks the file dirty again and gets
   * its own timer. A failure leaves the file dirty: the next durable append or close() syncs (and reports).
   */
  private syncInBackground(): void {
    if (!this.dirty || this.closed || this.backgroundSync) return;
    this.dirty = false;
    this.backgroundSync = this.handle.datasync()
      .catch(() => { this.dirty = true; })
      .finally(() => { this.backgroundSync = undefined; });
  }

  private checkpoint(): void {
    const signed = this.options.signer!.sign(this.seq, this.prevHash);
    this.write({ kind: 'checkpoint', result: signed }, true);
    writeHeadFile(this.path, signed);
    this.sinceCheckpoint = 0;
  }

  /** Waits for pending appends, signs a closing checkpoint, syncs, closes the file and forgets the instance. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (--this.users > 0) return;
    if (this.options.signer && this.sinceCheckpoint > 0) {
      await this.enqueue(() => this.locked(() => { if (this.seq > 0) this.checkpoint(); })).catch(() => undefined);
    }
    await this.queue;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    await this.backgroundSync;
    if (this.dirty) { try { this.sync(); } catch { /* reported by the append that fails next, if any */ } }
    this.closed = true;
    open_chains.delete(this.path);
    await this.handle.close();
  }
}

/** Any failure to open, write or sync the chain: the call that needed it does not run. */
function unwritable(path: string, err: unknown, what: string): WebcapError {
  const e = err as NodeJS.ErrnoException;
  if (err instanceof WebcapError) return err;
  return new WebcapError('internal', `${what} the causal chain ${path}: ${e?.message ?? String(err)}`, { reason: 'chain_unwritable', chain: path, errno: e?.code ?? null });
}

// A new file's directory entry must be durable too, or a crash can lose the whole file.
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch { /* not supported on every platform (Windows); best effort */ }
}
