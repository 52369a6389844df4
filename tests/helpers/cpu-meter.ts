// Measurement only (loaded when WEBCAP_CPU_LOG names a file): appends one line per
// test file with the CPU seconds its worker and the children it reaped (sidecars,
// Chromium, daemons) spent, and its wall seconds. On a shared machine wall time
// swells with the load; CPU seconds do not, so they estimate a quiet machine's run.
// Files now share workers (unit threads, e2e processes): a unit line counts every thread of its
// process, and an e2e line may include a child another file left to exit. Read lines as estimates.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

const TICKS_PER_SECOND = 100;

function cpuSeconds(): { own: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: utime, stime, cutime, cstime are fields 12..15 (0-based).
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return { own: (utime + stime) / TICKS_PER_SECOND, children: (cutime + cstime) / TICKS_PER_SECOND };
}

// Read when the setup file loads, before the test file is imported: importing counts too.
const start = cpuSeconds();
const startedAt = Date.now();
let file = 'unknown';
beforeAll(({}, suite) => { file = suite.file.filepath; });
afterAll(() => {
  const end = cpuSeconds();
  const line = {
    file: file.replace(/^.*?\/tests\//, 'tests/'),
    cpu_s: +(end.own - start.own + end.children - start.children).toFixed(2),
    children_cpu_s: +(end.children - start.children).toFixed(2),
    wall_s: +((Date.now() - startedAt) / 1000).toFixed(2),
  };
  appendFileSync(process.env.WEBCAP_CPU_LOG!, `${JSON.stringify(line)}\n`);
});
