// Snapshot economy on saved real-world pages: how many characters each view of
// web.snapshot costs an agent, and whether every visible interactable element
// (the rules: links with href, buttons, fields, onclick, role=button/link,
// tabindex ≥ 0) can still be reached by a ref of that view. Playwright's
// ariaSnapshot({mode: "ai"}) is the reference, measured in the same run, and
// agent-browser's `snapshot -i` the peer (the issue's target: compact ≤ it).
// Nothing leaves loopback: pages are served from 127.0.0.1, and the reference
// browsers get a dead loopback proxy for anything else.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from 'playwright';
import type { Host } from '../host/host.js';
import { projectRoot } from '../manifests/load.js';
import { collectInPage } from '../sidecar/elements/in-page.js';
import { evaluateWithIds } from '../sidecar/elements/wa-ids.js';
import { ID_ATTRIBUTE } from '../sidecar/refs/locate.js';
import { compactView } from '../sidecar/snapshot/compact.js';
import { refsInView } from '../sidecar/snapshot/link-runs.js';
import { offTreeInPage } from '../sidecar/snapshot/off-tree-in-page.js';
import { interactiveOnly } from '../sidecar/snapshot/interactive.js';
import { PAYMENT } from '../sidecar/tools/field-kind.js';
import { findChromium, launchArgs } from '../sidecar/browser/find-chromium.js';
import { send, serve, type Handler } from '../tests/helpers/fixture-server.js';
import { percentile } from './stats.js';

const run = promisify(execFile);
// Loopback bypasses a proxy by default, so only the pages' own server is reachable.
const DEAD_PROXY = ['--proxy-server=http://127.0.0.1:9'];
const VIEWS = ['compact', 'interactive', 'full'] as const;

export interface EconomyRow { page: string; ai: number; agentBrowser: number | null; sizes: Record<string, number>; interactable: number; reached: Record<string, number> }

/**
 * The saved real-world pages: bench/pages/real-world/*.html (news and blog
 * pages, licence in its LICENCE.md) and the article corpus
 * bench/corpus/<set>/<name>/source.html (bench/corpus/LICENCE.md).
 */
export function corpusPages(): Array<{ name: string; html: string }> {
  const pages: Array<{ name: string; html: string }> = [];
  const real = join(projectRoot(), 'bench', 'pages', 'real-world');
  if (existsSync(real)) {
    for (const file of readdirSync(real).filter((f) => f.endsWith('.html')).sort()) {
      pages.push({ name: `real-world/${file.replace(/\.html$/, '')}`, html: readFileSync(join(real, file), 'utf8') });
    }
  }
  const root = join(projectRoot(), 'bench', 'corpus');
  if (!existsSync(root)) return pages;
  for (const set of readdirSync(root).sort()) {
    const dir = join(root, set);
    // LICENCE.md sits beside the sets: only folders hold pages. Synthetic sets (one-rule unit pages) are not real-world.
    if (!statSync(dir).isDirectory() || set.endsWith('-synthetic') || !readdirSync(dir).length) continue;
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name, 'source.html');
      if (existsSync(file)) pages.push({ name: `${set}/${name}`, html: readFileSync(file, 'utf8') });
    }
  }
  return pages;
}

/** `hostname` must resolve to 127.0.0.1 in the host's config and be allowlisted. */
export async function snapshotEconomy(host: Host, pages = corpusPages(), hostname = 'corpus.test'): Promise<EconomyRow[]> {
  const routes: Record<string, Handler> = Object.fromEntries(pages.map((p, i) => [`/p${i}`, ((_q, res) => send(res, p.html)) as Handler]));
  const site = await serve(routes);
  const browser = await chromium.launch({ executablePath: (await findChromium())!.path, args: [...launchArgs({}), ...DEAD_PROXY] });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const rows: EconomyRow[] = [];
  try {
    for (const [i, p] of pages.entries()) {
      const local = site.url('127.0.0.1', `/p${i}`);
      await page.goto(local, { waitUntil: 'load' }).catch(() => undefined);
      await host.call('web.navigate', { url: site.url(hostname, `/p${i}`) });
      const sizes: Record<string, number> = {};
      for (const mode of VIEWS) sizes[mode] = ((await host.call('web.snapshot', { mode, max_chars: 1_000_000 })).snapshot as string).length;
      const ai = await page.ariaSnapshot({ mode: 'ai' });
      const { interactable, reached } = await coverage(page, ai);
      rows.push({ page: p.name, ai: ai.length, agentBrowser: await agentBrowserSize(local), sizes, interactable, reached });
    }
  } finally {
    await browser.close();
    await site.close();
    await agentBrowser(['close']).catch(() => undefined);
  }
  return rows;
}

/** Interactable elements some ref of each view resolves to (refs resolved in the page, one by one). */
async function coverage(page: Page, ai: string): Promise<{ interactable: number; reached: Record<string, number> }> {
  const { elements } = await evaluateWithIds(page, collectInPage, { attr: 'data-econ-id', next: 0, payment: PAYMENT.source });
  const refsOf = (text: string) => new Set(refsInView(text)); // `[ref=e12]` lines and `- links: e12 "…"` lists
  // The compact answer's last section: the same in-page pass the tool runs, numbering wa-N from 0.
  const offTree = (await evaluateWithIds(page, offTreeInPage, { attr: ID_ATTRIBUTE, next: 0 })).elements.map((e) => e.id);
  const views: Record<string, Set<string>> = { compact: new Set([...refsOf(compactView(ai)), ...offTree]), interactive: refsOf(interactiveOnly(ai)), full: refsOf(ai) };
  const idOfRef = new Map<string, string>();
  for (const ref of [...views.full, ...offTree]) {
    const target = ref.startsWith('wa-') ? page.locator(`[${ID_ATTRIBUTE}="${ref}"]`) : page.locator(`aria-ref=${ref}`);
    const id = await target.getAttribute('data-econ-id', { timeout: 500 }).catch(() => null);
    if (id) idOfRef.set(ref, id);
  }
  const wanted = new Set(elements.map((e) => e.web_agent_id));
  const reached: Record<string, number> = {};
  for (const [view, refs] of Object.entries(views)) {
    reached[view] = new Set([...refs].map((r) => idOfRef.get(r)).filter((id): id is string => !!id && wanted.has(id))).size;
  }
  return { interactable: wanted.size, reached };
}

async function agentBrowser(args: string[]): Promise<string> {
  const bin = join(projectRoot(), 'node_modules', 'agent-browser', 'bin', 'agent-browser.js');
  const exe = (await findChromium())!.path;
  const { stdout } = await run(process.execPath, [bin, '--session', 'webcap-econ', '--executable-path', exe,
    '--args', ['--no-sandbox', '--disable-gpu', ...DEAD_PROXY].join(','), ...args], { maxBuffer: 64 << 20, timeout: 60_000 });
  return stdout;
}

async function agentBrowserSize(url: string): Promise<number | null> {
  try {
    await agentBrowser(['open', url]);
    return (await agentBrowser(['snapshot', '-i'])).trimEnd().length;
  } catch {
    return null; // reported as "n/a": the peer could not run here
  }
}

export function economyTable(rows: EconomyRow[]): string {
  const med = (xs: number[]) => percentile(xs, 50);
  const p90 = (xs: number[]) => percentile(xs, 90);
  const total = rows.reduce((n, r) => n + r.interactable, 0);
  const line = (label: string, sizes: number[], reached: number | null) =>
    `| ${label} | ${med(sizes).toFixed(0)} | ${p90(sizes).toFixed(0)} | ${(med(sizes.map((s, i) => s / rows[i].ai))).toFixed(3)} | ${reached === null ? 'n/a' : `${((100 * reached) / Math.max(1, total)).toFixed(2)} %`} |`;
  const ab = rows.filter((r) => r.agentBrowser !== null);
  return [
    `${rows.length} saved real-world pages, ${total} visible interactable elements in all`,
    '',
    '| view | median chars | p90 chars | median × ariaSnapshot ai | interactables reachable by a ref |',
    '|---|---|---|---|---|',
    line('ariaSnapshot({mode:"ai"}) (reference)', rows.map((r) => r.ai), rows.reduce((n, r) => n + r.reached.full, 0)),
    ...VIEWS.map((v) => line(`web.snapshot ${v}${v === 'compact' ? ' (default)' : ''}`, rows.map((r) => r.sizes[v]), rows.reduce((n, r) => n + r.reached[v], 0))),
    ab.length ? `| agent-browser snapshot -i (peer, ${ab.length} pages) | ${med(ab.map((r) => r.agentBrowser!)).toFixed(0)} | ${p90(ab.map((r) => r.agentBrowser!)).toFixed(0)} | ${med(ab.map((r) => r.agentBrowser! / r.ai)).toFixed(3)} | not measured |` : '| agent-browser snapshot -i | n/a | n/a | n/a | n/a |',
  ].join('\n');
}
