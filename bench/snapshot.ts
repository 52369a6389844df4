// Snapshot bench: how much smaller web.snapshot is than the page's HTML, on the
// test fixtures and on three large real-world-shaped pages (bench/pages/*.html,
// see generate.ts), whether every interactable element (the interactable rules) is
// still addressable by a snapshot ref, and how long a snapshot takes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { Host } from '../host/host.js';
import { projectRoot } from '../manifests/load.js';
import { collectInPage } from '../sidecar/elements/in-page.js';
import { evaluateWithIds } from '../sidecar/elements/wa-ids.js';
import { interactiveOnly } from '../sidecar/snapshot/interactive.js';
import { PAYMENT } from '../sidecar/tools/field-kind.js';
import { agentRoutes } from '../tests/fixtures/agent-pages.js';
import { forumPage } from '../tests/fixtures/forum-site.js';
import { shopRoutes } from '../tests/fixtures/shop-site.js';
import { send, serve, type Handler } from '../tests/helpers/fixture-server.js';
import { median, sideBySide, type Row } from './stats.js';

const LARGE = ['news', 'shop', 'docs'];
const TARGET_RATIO = 10;

function routes(): Record<string, Handler> {
  const saved = Object.fromEntries(LARGE.map((name) => {
    const html = readFileSync(join(projectRoot(), 'bench', 'pages', `${name}.html`), 'utf8');
    return [`/${name}`, ((_req, res) => send(res, html)) as Handler];
  }));
  const forum = (path: string): Handler => (_req, res) => send(res, forumPage(path)!);
  return {
    ...saved,
    '/app': agentRoutes['/app'], '/frame': agentRoutes['/frame'], '/mixed': agentRoutes['/mixed'], '/long': agentRoutes['/long'],
    '/shop-list': shopRoutes['/list'], '/shop-form': shopRoutes['/form'],
    '/forum-tag': forum('/bbs/tag/openai-9407-3.html'), '/forum-thread': forum('/bbs/thread-1155609-1-1.html'),
  };
}

interface Sizes { page: string; html: number; full: number; interactive: number; indexed: number; interactable: number; addressable: number; addressableInteractive: number; large: boolean }

/** Interactable elements that some ref of the full / interactive-only snapshot resolves to. */
async function addressable(page: Page): Promise<{ interactable: number; reached: number; reachedInteractive: number }> {
  const { elements } = await evaluateWithIds(page, collectInPage, { attr: 'data-bench-id', next: 0, payment: PAYMENT.source });
  const full = await page.ariaSnapshot({ mode: 'ai' });
  const refsIn = (text: string) => new Set([...text.matchAll(/\[ref=([^\]]+)\]/g)].map((m) => m[1]));
  const interactiveRefs = refsIn(interactiveOnly(full));
  const reached = new Set<string>();
  const reachedInteractive = new Set<string>();
  for (const ref of refsIn(full)) {
    const id = await page.getByRef(ref).getAttribute('data-bench-id', { timeout: 1000 }).catch(() => null);
    if (id) reached.add(id);
    if (id && interactiveRefs.has(ref)) reachedInteractive.add(id);
  }
  const count = (ids: Set<string>) => elements.filter((e) => ids.has(e.web_agent_id)).length;
  return { interactable: elements.length, reached: count(reached), reachedInteractive: count(reachedInteractive) };
}

export async function snapshotBench(host: Host, page: Page, n: number): Promise<{ rows: Row[]; report: string }> {
  const site = await serve(routes());
  const url = (p: string) => site.url('shop.test', p);
  const sizes: Sizes[] = [];
  const rows: Row[] = [];
  try {
    for (const path of Object.keys(routes()).filter((p) => p !== '/frame')) {
      await host.call('web.navigate', { url: url(path) });
      await page.goto(url(path));
      const full = await host.call('web.snapshot', { max_chars: 1_000_000 });
      const interactive = await host.call('web.snapshot', { mode: 'interactive', max_chars: 1_000_000 });
      const html = (await page.content()).length;
      const indexed = await host.call('web.page_content', { max_chars: 5_000_000 });
      const { interactable, reached, reachedInteractive } = await addressable(page);
      const large = LARGE.includes(path.slice(1));
      sizes.push({ page: path.slice(1), html, full: (full.snapshot as string).length, interactive: (interactive.snapshot as string).length,
        indexed: (indexed.content as string).length, interactable, addressable: reached, addressableInteractive: reachedInteractive, large });
      if (large || path === '/app') {
        const s = await sideBySide(n, () => host.call('web.snapshot', {}), () => page.ariaSnapshot({ mode: 'ai' }));
        const webcap = median(s.a);
        const raw = median(s.b);
        rows.push({ name: `web.snapshot ${path.slice(1)} (default budget) vs ariaSnapshot ai`, webcap, raw, pass: webcap - raw <= 50 || webcap / raw <= 1.5, target: 'ratio ≤ 1.5 or ≤ 50 ms added' });
      }
    }
  } finally {
    await site.close();
  }
  return { rows, report: sizeTable(sizes) };
}

function sizeTable(sizes: Sizes[]): string {
  const head = '| page | HTML chars | snapshot full: chars | × smaller | snapshot interactive: chars | × smaller | page_content indexed: chars | interactable elements | addressable by a ref: full / interactive | ≥ 10× and all addressable: full / interactive |\n|---|---|---|---|---|---|---|---|---|---|';
  const lines = sizes.map((s) => {
    const verdict = (size: number, reached: number) => (s.html / size >= TARGET_RATIO && reached === s.interactable ? 'yes' : 'NO');
    const met = s.large ? `${verdict(s.full, s.addressable)} / ${verdict(s.interactive, s.addressableInteractive)}` : '(fixture)';
    return `| ${s.page}${s.large ? ' (large)' : ''} | ${s.html} | ${s.full} | ${(s.html / s.full).toFixed(1)} | ${s.interactive} | ${(s.html / s.interactive).toFixed(1)} | ${s.indexed} | ${s.interactable} | ${s.addressable} / ${s.addressableInteractive} | ${met} |`;
  });
  return [head, ...lines].join('\n');
}
