// The process tree under a pid, read from ps: to find our sidecar and its
// Chromium, and to prove none is left after close().
import { execFileSync } from 'node:child_process';

export interface Proc { pid: number; ppid: number; args: string }

export function processTable(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n').filter(Boolean).map((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)!;
      return { pid: Number(m[1]), ppid: Number(m[2]), args: m[3] };
    });
}

export function descendants(root = process.pid): Proc[] {
  const table = processTable();
  const out: Proc[] = [];
  const walk = (pid: number) => table.filter((p) => p.ppid === pid).forEach((p) => { out.push(p); walk(p.pid); });
  walk(root);
  return out.filter((p) => !p.args.startsWith('ps '));
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !processTable().find((p) => p.pid === pid)?.args.includes('<defunct>');
  } catch {
    return false;
  }
}

export const sidecarOf = (root = process.pid) => descendants(root).find((p) => p.args.includes('sidecar/main.js'));
export const chromiumOf = (sidecarPid: number) => processTable().find((p) => p.ppid === sidecarPid && /chrom/i.test(p.args));
