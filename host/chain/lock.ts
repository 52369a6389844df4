// The cross-process lock around each chain append (proper-lockfile: an atomic
// mkdir of `<chain>.lock`, refreshed while held, taken over when a crashed
// holder left it stale). Held for one append only (a few syscalls and at most
// one fdatasync), so two processes on one chain interleave whole entries and
// the chain never forks.
//
// Where the lock lives: in /dev/shm (memory) when the machine has it, named by
// the chain file's device and inode, so every path to one file (links, bind
// mounts on this machine) shares one lock and taking it costs no disk journal
// write (a mkdir + rmdir beside a chain on a busy disk cost milliseconds, more
// than the append). Elsewhere: `<chain>.lock` beside the chain.
import * as fs from 'node:fs';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { WebcapError } from '../../manifests/errors.js';

const SHM = '/dev/shm';

/**
 * The few calls the lock makes, and nothing else: its sync mode copies the fs object it is given on every
 * lock, and copying all of graceful-fs's took about two thirds of an append's lock time.
 */
const LOCK_FS = {
  mkdir: fs.mkdir, realpath: fs.realpath, stat: fs.stat, rmdir: fs.rmdir, utimes: fs.utimes,
  mkdirSync: fs.mkdirSync, realpathSync: fs.realpathSync, statSync: fs.statSync, rmdirSync: fs.rmdirSync, utimesSync: fs.utimesSync,
};

/** A holder that died leaves the lock; after this long it is taken over. */
const STALE_MS = 10_000;
/** How long an append waits for another process before the call fails. */
const WAIT_MS = 30_000;

let shmDir: string | null | undefined;
function memoryLockDir(): string | null {
  if (shmDir !== undefined) return shmDir;
  try {
    accessSync(SHM, constants.W_OK);
    shmDir = `${SHM}/webcap-chain-locks`;
    mkdirSync(shmDir, { recursive: true, mode: 0o1777 });
  } catch {
    shmDir = null;
  }
  return shmDir;
}

export function lockPathOf(chainPath: string): string {
  const dir = memoryLockDir();
  if (!dir) return `${chainPath}.lock`;
  try {
    const { dev, ino } = statSync(chainPath);
    return `${dir}/${dev}-${ino}.lock`;
  } catch {
    return `${chainPath}.lock`;
  }
}

/** Takes the chain's lock, waiting (without blocking the event loop) while another process holds it. */
export async function acquireChainLock(chainPath: string, lockfilePath = lockPathOf(chainPath)): Promise<() => void> {
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      // realpath: false, so a chain that is a symlink (to /dev/full in a test,
      // or to another disk) keeps its lock beside the link, not beside the target.
      return lockfile.lockSync(chainPath, { realpath: false, lockfilePath, stale: STALE_MS, onCompromised: () => undefined, fs: LOCK_FS });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') throw err;
      if (Date.now() > deadline) {
        throw new WebcapError('internal', `the causal chain ${chainPath} is locked by another process (${lockfilePath} held for over ${WAIT_MS / 1000} s)`, { reason: 'chain_locked', chain: chainPath, lock: lockfilePath });
      }
      // Short, jittered waits: the other holder needs well under a millisecond.
      await new Promise((r) => setTimeout(r, Math.min(1 + Math.random() * attempt, 20)));
    }
  }
}
