// The live view's cost: a session shows a page that repaints all the time
// (an animation), 1280x720; a viewer reads the console's frame stream
// (/live/SESSION.mjpeg) for W seconds. Reported: frames/s the viewer received,
// and the CPU time of this process (the host) + the sidecar + its Chromium
// over that window, as a share of one core; the same window with no viewer,
// same page, is the baseline (what the page costs anyway).
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';

const TICKS_PER_S = 100;   // USER_HZ on Linux

/** Which part of the stack a process is: this host, the sidecar (a node child), or a Chromium process by its --type. */
function roleOf(pid: number, root: number): string {
  if (pid === root) return 'host';
  let cmd = '';
  try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '); } catch { return 'other'; }
  if (/chrom/i.test(cmd.split(' ')[0] ?? '')) {
    const type = /--type=([\w-]+)/.exec(cmd)?.[1];
    const sub = /--utility-sub-type=([\w.]+)/.exec(cmd)?.[1];
    return `chromium ${type ? (sub ? `${type} (${sub.split('.').pop()})` : type) : 'browser'}`;
  }
  return /node/.test(cmd.split(' ')[0] ?? '') ? 'sidecar' : 'other';
}

/** utime+stime (seconds) of this process and every process below it, by role (host, sidecar, each Chromium process type). */
export function treeCpuByRole(root = process.pid): Map<string, number> {
  const parentOf = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S);
    } catch { /* gone meanwhile */ }
  }
  const inTree = (pid: number): boolean => { for (let p = pid, hops = 0; p > 1 && hops < 50; p = parentOf.get(p) ?? 0, hops++) if (p === root) return true; return false; };
  const byRole = new Map<string, number>();
  for (const [pid, seconds] of cpu) if (inTree(pid)) { const role = roleOf(pid, root); byRole.set(role, (byRole.get(role) ?? 0) + seconds); }
  return byRole;
}

/** Counts the frames of the console's stream for `ms`. */
function watchFrames(consoleUrl: string, session: string, ms: number): Promise<number> {
  const u = new URL(consoleUrl);
  return new Promise((resolve, reject) => {
    let frames = 0;
    let tail = '';
    const req = request(`${u.origin}/live/${session}.mjpeg?token=${u.searchParams.get('token')}`, (res) => {
      res.on('data', (chunk: Buffer) => {
        const text = tail + chunk.toString('latin1');
        frames += text.split('--webcap-frame').length - 1;
        tail = text.slice(-('--webcap-frame'.length - 1));   // never a whole boundary, so none is counted twice
      });
    });
    req.on('error', reject);
    req.end();
    setTimeout(() => { req.destroy(); resolve(Math.max(0, frames - 1)); }, ms);   // the first boundary opens the stream
  });
}

/** CPU (by role, and in all, as shares of one core) and frames/s over one window, with or without a viewer of `session`. */
export async function liveWindow(consoleUrl: string, session: string, seconds: number, viewer: boolean) {
  const cpu0 = treeCpuByRole();
  const t0 = performance.now();
  const frames = viewer ? await watchFrames(consoleUrl, session, seconds * 1000) : (await new Promise((r) => setTimeout(r, seconds * 1000)), 0);
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = treeCpuByRole();
  // A process that ended in the window drops out of the second reading; counting only its first would go negative.
  const roles = new Map([...cpu1].map(([role, s]) => [role, Math.max(0, s - (cpu0.get(role) ?? 0)) / wall]));
  let core = 0;
  for (const share of roles.values()) core += share;
  return { fps: frames / wall, core, roles };
}

export async function screencastBench(consoleUrl: string, session: string, seconds: number) {
  await liveWindow(consoleUrl, session, seconds, true);   // warm-up: the screencast's first start
  const idle = await liveWindow(consoleUrl, session, seconds, false);
  const watched = await liveWindow(consoleUrl, session, seconds, true);
  return { idle, watched };
}
