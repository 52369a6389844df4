// The process tree under this process (host → sidecar → Chromium), read from
// ps: to find what to kill mid-run and to sum resident memory.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

interface Proc { pid: number; ppid: number; rssKb: number; args: string }

function table(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .split('\n').filter(Boolean).map((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line)!;
      return { pid: Number(m[1]), ppid: Number(m[2]), rssKb: Number(m[3]), args: m[4] };
    });
}

function tree(root: number, all: Proc[]): Proc[] {
  const out: Proc[] = [];
  const walk = (pid: number) => all.filter((p) => p.ppid === pid).forEach((p) => { out.push(p); walk(p.pid); });
  walk(root);
  return out.filter((p) => !p.args.startsWith('ps '));
}

/**
 * Memory (MB) of this process and every process under it: the sum of their
 * RSS (pages Chromium's processes share are counted in each), and of their
 * proportional share (Linux's Pss; RSS where it cannot be read).
 */
export function memoryMb(): { rss: number; pss: number } {
  const all = table();
  const procs = [all.find((p) => p.pid === process.pid), ...tree(process.pid, all)].filter((p): p is Proc => Boolean(p));
  return {
    rss: procs.reduce((n, p) => n + p.rssKb, 0) / 1024,
    pss: procs.reduce((n, p) => n + (pssKb(p.pid) ?? p.rssKb), 0) / 1024,
  };
}

function pssKb(pid: number): number | undefined {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function sidecarPid(): number | undefined {
  return tree(process.pid, table()).find((p) => p.args.includes('sidecar/main.js'))?.pid;
}

/** The browser's main process: the sidecar's Chromium child. */
export function chromiumPid(): number | undefined {
  const sidecar = sidecarPid();
  return sidecar === undefined ? undefined : table().find((p) => p.ppid === sidecar && /chrom/i.test(p.args))?.pid;
}
