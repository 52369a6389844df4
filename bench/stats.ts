// Medians and percentiles of interleaved samples: both sides are measured in
// the same run, alternating, so machine noise hits them alike.
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export const median = (s: number[]) => percentile(s, 50);

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

// Actions that wait for the page to be stable (click) end on a frame
// boundary, so back-to-back samples lock onto the page's 60 Hz frame clock
// and a side that is 1 ms slower can lose a whole 16.7 ms frame every time.
// An untimed random pause before each sample spreads the phase, as the
// arbitrary moments an agent's actions arrive at would; the order alternates.
const FRAME_MS = 1000 / 60;
const pause = () => new Promise((r) => setTimeout(r, Math.random() * FRAME_MS * 2));

export async function sideBySide(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>, warmup = 3) {
  for (let i = 0; i < warmup; i++) { await a(); await b(); }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < n; i++) {
    const first = i % 2 === 0;
    await pause();
    if (first) as.push(await timed(a)); else bs.push(await timed(b));
    await pause();
    if (first) bs.push(await timed(b)); else as.push(await timed(a));
  }
  return { a: as, b: bs };
}

export interface Row { name: string; webcap: number; raw: number; target: string; pass: boolean; note?: string }

export function table(rows: Row[]): string {
  const head = '| measure | webcap (median ms) | raw Playwright (median ms) | ratio | added ms | target | met |\n|---|---|---|---|---|---|---|';
  return [head, ...rows.map((r) => `| ${r.name} | ${r.webcap.toFixed(2)} | ${r.raw.toFixed(2)} | ${(r.webcap / r.raw).toFixed(2)} | ${(r.webcap - r.raw).toFixed(2)} | ${r.target} | ${r.pass ? 'yes' : 'NO'} |${r.note ? ` ${r.note}` : ''}`)].join('\n');
}
