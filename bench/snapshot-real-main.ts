// npm run bench:snapshot — the snapshot-on-real-pages table for webcap and
// both peers, on the development, held-out, unseen and unseen-2 sets, then one summary
// with a column per set. SNAP_REPS (default 3) snapshots per page for the time;
// SNAP_LIMIT caps pages per set (a quick look while developing);
// SNAP_SETS=development picks one set; SNAP_DUMP=dir keeps every answer;
// SNAP_TOOLS=webcap picks tools; SNAP_PAGES=1 lists webcap's development pages
// one by one (never the other sets: they are read in aggregate only);
// SNAP_MAX_CHARS passes a max_chars to webcap's web_snapshot (default: none,
// the tool's own default).
import { loadavg } from 'node:os';
import { SNAPSHOT_SETS, type SnapshotHalf } from './snapshot-corpus.js';
import { snapshotRealBench, type PageResult, type ToolResults } from './snapshot-real.js';
import { percentile } from './stats.js';

const TOOLS = ['webcap', 'agent-browser', '@playwright/mcp'];
const HEAD = '| measure | webcap `web_snapshot` (default) | agent-browser 0.41.2 `snapshot -i` | @playwright/mcp 0.0.83 `browser_snapshot` |';

const med = (xs: number[]) => percentile(xs, 50);
const f0 = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function coverage(rows: PageResult[]): string {
  const counted = rows.filter((r) => r.interactable !== null);
  const total = counted.reduce((n, r) => n + r.interactable!, 0);
  const hit = counted.reduce((n, r) => n + Math.min(r.addressed, r.interactable!), 0);
  return `${pct(hit / Math.max(1, total))} (${hit} of ${total}${counted.length < rows.length ? `, ${rows.length - counted.length} pages uncounted` : ''})`;
}

const ratio = (results: ToolResults, peer: string, of: (r: PageResult) => number) =>
  (results[peer]?.length ? (med(results.webcap.map(of)) / med(results[peer].map(of))).toFixed(2) : '–');

/** One column per set: the acceptance measures side by side. */
export function summaryTable(sets: string[], bySet: Record<string, ToolResults>): string {
  const row = (label: string, cell: (r: ToolResults) => string, target: string) => `| ${label} | ${sets.map((s) => cell(bySet[s])).join(' | ')} | ${target} |`;
  return [
    `| measure | ${sets.join(' | ')} | target |`,
    `|---|${sets.map(() => '---|').join('')}---|`,
    row('pages', (r) => String(r.webcap.length), ''),
    row('median size ÷ agent-browser `snapshot -i` / ÷ @playwright/mcp', (r) => `${ratio(r, 'agent-browser', (x) => x.size)} / ${ratio(r, '@playwright/mcp', (x) => x.size)}`, '≤ 0.8 / ≤ 1'),
    row('pages cut', (r) => pct(r.webcap.filter((x) => x.cut).length / r.webcap.length), '≤ 5%'),
    row('interactables with a ref in the default answer', (r) => coverage(r.webcap), '≥ 99.5%'),
    row('median real page, time ÷ @playwright/mcp', (r) => ratio(r, '@playwright/mcp', (x) => x.ms), '≤ 1.3'),
  ].join('\n');
}

export function setTable(set: string, results: ToolResults): string {
  const cols = TOOLS.map((t) => results[t]);
  const row = (label: string, cell: (rows: PageResult[]) => string) => `| ${label} | ${cols.map((rs) => (rs?.length ? cell(rs) : '–')).join(' | ')} |`;
  const w = results.webcap;
  const sizeRatio = (peer: string) => (results[peer]?.length ? med(w.map((r) => r.size)) / med(results[peer].map((r) => r.size)) : NaN);
  const timeRatio = results['@playwright/mcp']?.length ? med(w.map((r) => r.ms)) / med(results['@playwright/mcp'].map((r) => r.ms)) : NaN;
  const kinds = [...new Set(w.map((r) => r.kind))].map((k) => `${k} ${w.filter((r) => r.kind === k).length}`).join(', ');
  return [
    `**${set}** (${w.length} pages: ${kinds})`,
    '',
    HEAD,
    '|---|---|---|---|',
    row('answer the agent receives, median characters', (rs) => f0(med(rs.map((r) => r.size)))),
    row('the same, 90th percentile', (rs) => f0(percentile(rs.map((r) => r.size), 90))),
    row('pages where the default answer is cut', (rs) => pct(rs.filter((r) => r.cut).length / rs.length)),
    row('interactable elements addressable by a ref in the default answer', coverage),
    row('time per snapshot over the tool\'s interface, median over pages', (rs) => `${med(rs.map((r) => r.ms)).toFixed(1)} ms`),
    '',
    `webcap ÷ agent-browser median size ${sizeRatio('agent-browser').toFixed(2)} (target ≤ 0.8), ÷ @playwright/mcp ${sizeRatio('@playwright/mcp').toFixed(2)} (≤ 1); `
      + `uncut ${pct(w.filter((r) => !r.cut).length / w.length)} (≥ 95%); time ÷ @playwright/mcp ${timeRatio.toFixed(2)} (≤ 1.3)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = (process.env.SNAP_SETS?.split(',') ?? SNAPSHOT_SETS) as SnapshotHalf[];
  const load = loadavg().map((x) => x.toFixed(1)).join(' / ');
  const { small, results } = await snapshotRealBench({ sets, reps: Number(process.env.SNAP_REPS ?? 3), limit: process.env.SNAP_LIMIT ? Number(process.env.SNAP_LIMIT) : undefined, dump: process.env.SNAP_DUMP, tools: process.env.SNAP_TOOLS?.split(',') });
  const out = [`Load average at start: ${load}; at end: ${loadavg().map((x) => x.toFixed(1)).join(' / ')}`, ''];
  for (const set of sets) out.push(setTable(set, results[set]), '');
  out.push(summaryTable(sets, results), '');
  out.push('| small form page, median ms per snapshot | webcap | agent-browser | @playwright/mcp |', '|---|---|---|---|',
    `| ${''} | ${TOOLS.map((t) => small[t]?.toFixed(1) ?? '–').join(' | ')} |`);
  if (process.env.SNAP_PAGES) {
    for (const set of sets.filter((s) => s === 'development')) for (const r of results[set].webcap ?? []) out.push(`${set} ${r.page} size=${r.size} cut=${r.cut} covered=${r.addressed}/${r.interactable} ${r.ms.toFixed(0)}ms`);
  }
  process.stdout.write(out.join('\n') + '\n');
}
