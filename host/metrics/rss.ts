// The browser's resident memory: every process under the given sidecar pids
// (Chromium and its renderers), read from /proc. Elsewhere than Linux: 0.
import { readdir, readFile } from 'node:fs/promises';

const PAGE = 4096;

export async function chromiumRssBytes(roots: number[]): Promise<number> {
  if (roots.length === 0 || process.platform !== 'linux') return 0;
  const parentOf = new Map<number, number>();
  const pages = new Map<number, number>();
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d));
  await Promise.all(pids.map(async (d) => {
    const [stat, statm] = await Promise.all([readFile(`/proc/${d}/stat`, 'utf8').catch(() => ''), readFile(`/proc/${d}/statm`, 'utf8').catch(() => '')]);
    // stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isFinite(ppid)) parentOf.set(Number(d), ppid);
    pages.set(Number(d), Number(statm.split(' ')[1]) || 0);
  }));
  const inside = new Set(roots);
  let total = 0;
  for (const pid of parentOf.keys()) {
    if (inside.has(pid)) continue;
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) {
      if (inside.has(p)) { total += (pages.get(pid) ?? 0) * PAGE; break; }
    }
  }
  return total;
}
