// The live view's cost: a session shows a page that repaints all the time
// (an animation), 1280x720; a viewer reads the console's frame stream
// (/live/SESSION.mjpeg) for W seconds. Reported: frames/s the viewer received,
// and the CPU time of this process (the host) + the sidecar + its Chromium
// over that window, as a share of one core; the same window with no viewer,
// same page, is the baseline (what the page costs anyway).
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { Host } from '../host/host.js';

const TICKS_PER_S = 100;   // USER_HZ on Linux

/** utime+stime (seconds) of this process and every process below it. */
export function treeCpuSeconds(root = process.pid): number {
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
  let total = 0;
  for (const [pid, seconds] of cpu) if (inTree(pid)) total += seconds;
  return total;
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
        tail = text.slice(-20);
      });
    });
    req.on('error', reject);
    req.end();
    setTimeout(() => { req.destroy(); resolve(Math.max(0, frames - 1)); }, ms);   // the first boundary opens the stream
  });
}

export async function screencastBench(host: Host, consoleUrl: string, session: string, seconds: number) {
  const window = async (viewer: boolean) => {
    const cpu0 = treeCpuSeconds();
    const t0 = performance.now();
    const frames = viewer ? await watchFrames(consoleUrl, session, seconds * 1000) : (await new Promise((r) => setTimeout(r, seconds * 1000)), 0);
    const wall = (performance.now() - t0) / 1000;
    return { fps: frames / wall, core: (treeCpuSeconds() - cpu0) / wall };
  };
  await window(true);   // warm-up: the screencast's first start
  const idle = await window(false);
  const watched = await window(true);
  void host;
  return { idle, watched };
}
