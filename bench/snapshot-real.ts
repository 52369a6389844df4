// Snapshot on real pages: what each tool's default snapshot costs an agent
// (characters of the answer it receives), how often webcap's is cut, how many
// of the page's interactable elements it can address by a ref, and how long
// a snapshot takes — webcap's web_snapshot against @playwright/mcp's
// browser_snapshot and agent-browser's `snapshot -i`, the same pages in the
// same run, on the development, held-out, unseen and unseen-2 sets (bench/snapshot-corpus.ts).
// Answers are dumped (SNAP_DUMP) for development pages only: the other sets are read in aggregate.
// Samples rotate which tool goes first, so machine noise hits all three alike.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { html, send, serve, type Handler } from '../tests/helpers/fixture-server.js';
import { snapshotPages, type CorpusPage, type SnapshotHalf } from './snapshot-corpus.js';
import { addressedLabels, labelCount, labelled } from './snapshot-label.js';
import { agentBrowserTitle, agentBrowserTool, playwrightMcpTool, webcapTool, type SnapshotTool } from './snapshot-peers.js';
import { median, timed } from './stats.js';

export const SMALL_PAGE = html(`<h1>Sign up</h1><form onsubmit="return false">
  <label for="name">Name</label> <input id="name" name="name">
  <label for="city">City</label> <input id="city" name="city">
  <select id="plan" name="plan"><option>Free</option><option>Pro</option></select>
  <button id="go" type="button">Go</button>
</form><p id="status">idle</p><a href="/form?2">Other page</a>`);

export interface PageResult { page: string; kind: string; size: number; ms: number; cut: boolean; interactable: number | null; addressed: number }
export type ToolResults = Record<string, PageResult[]>;

/** The answer is cut when webcap says so (a notice of parts, or the header of a cut); the peers never cut. */
export function isCut(answer: string): boolean {
  return /\[truncated: |# cut to fit max_chars/.test(answer);
}

export interface BenchOptions { sets: SnapshotHalf[]; reps: number; limit?: number; dump?: string; tools?: string[] }

export async function snapshotRealBench(opts: BenchOptions) {
  const pages: Record<string, CorpusPage[]> = Object.fromEntries(opts.sets.map((s) => [s, snapshotPages(s).slice(0, opts.limit)]));
  const all = Object.values(pages).flat();
  const routes: Record<string, Handler> = { '/small': (_q, res) => send(res, SMALL_PAGE) };
  all.forEach((p, i) => {
    routes[`/p${i}`] = (_q, res) => send(res, p.html);
    routes[`/l${i}`] = (_q, res) => send(res, labelled(p.html));
  });
  const site = await serve(routes);
  const dir = mkdtempSync(join(tmpdir(), 'webcap-snapbench-'));
  const exe = (await findChromium())!.path;
  const want = (name: string) => !opts.tools || opts.tools.includes(name);
  const tools: SnapshotTool[] = [
    ...(want('webcap') ? [await webcapTool(dir)] : []),
    ...(want('agent-browser') ? [agentBrowserTool(exe)] : []),
    ...(want('@playwright/mcp') ? [await playwrightMcpTool(dir, exe)] : []),
  ];
  const url = (path: string) => site.url('127.0.0.1', path);
  try {
    const small = await smallPage(tools, url('/small'), Math.max(5, opts.reps * 5));
    const results: Record<string, ToolResults> = {};
    for (const [set, list] of Object.entries(pages)) {
      results[set] = Object.fromEntries(tools.map((t) => [t.name, [] as PageResult[]]));
      for (const p of list) {
        const i = all.indexOf(p);
        for (const [k, tool] of rotate(tools, i).entries()) {
          void k;
          results[set][tool.name].push(await measurePage(tool, p, url(`/p${i}`), url(`/l${i}`), opts.reps, exe, set === 'development' ? opts.dump : undefined));
        }
      }
    }
    return { small, results };
  } finally {
    for (const t of tools) await t.close().catch(() => undefined);
    await site.close();
  }
}

function rotate<T>(xs: T[], by: number): T[] {
  const k = by % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

async function smallPage(tools: SnapshotTool[], url: string, n: number): Promise<Record<string, number>> {
  for (const t of tools) { await t.open(url); await t.snapshot(); }
  const samples: Record<string, number[]> = Object.fromEntries(tools.map((t) => [t.name, []]));
  for (let i = 0; i < n; i++) for (const t of rotate(tools, i)) samples[t.name].push(await timed(() => t.snapshot()));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

async function measurePage(tool: SnapshotTool, p: CorpusPage, plain: string, withLabels: string, reps: number, exe: string, dump?: string): Promise<PageResult> {
  await tool.open(plain);
  let answer = '';
  const times: number[] = [];
  for (let r = 0; r < Math.max(1, reps); r++) times.push(await timed(async () => { answer = (await tool.snapshot()).text; }));
  await tool.open(withLabels);
  const labelledAnswer = await tool.snapshot();
  const title = tool.name === 'agent-browser' ? await agentBrowserTitle(exe) : labelledAnswer.title;
  if (dump) {
    mkdirSync(dump, { recursive: true });
    const base = join(dump, `${p.name.replace(/\//g, '__')}.${tool.name.replace(/\W/g, '')}`);
    writeFileSync(`${base}.txt`, answer);
    writeFileSync(`${base}.labelled.txt`, labelledAnswer.text);
  }
  return { page: p.name, kind: p.kind, size: answer.length, ms: median(times), cut: tool.name === 'webcap' && isCut(answer),
    interactable: labelCount(title), addressed: addressedLabels(labelledAnswer.text).size };
}
