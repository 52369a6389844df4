// @duckduckgo/autoconsent (MPL-2.0, DuckDuckGo's browsers) as a Playwright
// add-on: its content script (dist/autoconsent.playwright.js) runs in every
// frame and talks to us through one exposed binding, the way the library's
// own Playwright runner drives it. We answer its "init" with its own rules
// (rules/rules.json, filtered to the frame as its runner does), serve its
// "eval" requests in the frame, and wait for "popupFound". It runs with
// autoAction null: it detects, we decide (policy, user), then tell it
// "optOut" or "optIn" and read its optOutResult / optInResult.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Frame, Page } from 'playwright';

type Msg = { type: string; cmp?: string; result?: boolean; id?: string; code?: string; url?: string };
interface Rule { name: string; runContext?: { main?: boolean; frame?: boolean; urlPattern?: string } }

const require = createRequire(import.meta.url);
// The package's exports map hides dist/ and keeps rules.json: find dist/ beside its main file.
const DIST = dirname(require.resolve('@duckduckgo/autoconsent'));
let script: string | undefined;
let rules: Rule[] | undefined;
const contentScript = () => (script ??= readFileSync(join(DIST, 'autoconsent.playwright.js'), 'utf8'));
const allRules = () => (rules ??= (require('@duckduckgo/autoconsent/rules/rules.json') as { autoconsent: Rule[] }).autoconsent);

/** The library's rules that may run in this frame (its runner's filter: main/frame context, URL pattern). */
function rulesFor(url: string, mainFrame: boolean): Rule[] {
  return allRules().filter(({ runContext: c = {} }) => {
    if (mainFrame && c.main === false) return false;
    if (!mainFrame && !c.frame) return false;
    try {
      return !c.urlPattern || new RegExp(c.urlPattern).test(url);
    } catch {
      return false;
    }
  });
}

const CONFIG = {
  enabled: true, autoAction: null, disabledCmps: [], enablePrehide: false, enableCosmeticRules: false, enableGeneratedRules: true,
  detectRetries: 20, isMainWorld: true, prehideTimeout: 2000, enableHeuristicDetection: false, enablePopupMutationObserver: false,
  visualTest: false, performanceLoggingEnabled: false, heuristicPopupSearchTimeout: 0, heuristicMode: 'off',
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

/** One detection run on a page: messages from its frames, and who waits for which. */
export class LibraryRun {
  readonly detected = new Set<string>();
  found?: { frame: Frame; cmp: string };
  private readonly waiters: Array<(frame: Frame, msg: Msg) => void> = [];

  constructor(readonly page: Page) {}

  async receive(frame: Frame, msg: Msg): Promise<void> {
    if (!msg || typeof msg.type !== 'string') return;
    // The CMP name comes from the page's world: bounded, never trusted for more than a label.
    const cmp = typeof msg.cmp === 'string' ? msg.cmp.slice(0, 100) : undefined;
    if (msg.type === 'init') {
      const config = JSON.stringify(CONFIG);
      const bundle = JSON.stringify({ autoconsent: rulesFor(frame.url(), frame === this.page.mainFrame()) });
      await frame.evaluate(`autoconsentReceiveMessage({ type: "initResp", config: ${config}, rules: ${bundle} })`).catch(() => undefined);
    } else if (msg.type === 'eval' && typeof msg.code === 'string') {
      const result: unknown = await frame.evaluate(msg.code).catch(() => false);
      await frame.evaluate(`autoconsentReceiveMessage({ id: ${JSON.stringify(String(msg.id))}, type: "evalResp", result: ${JSON.stringify(result ?? null)} })`).catch(() => undefined);
    } else if (msg.type === 'cmpDetected' && cmp) {
      this.detected.add(cmp);
    } else if (msg.type === 'popupFound' && cmp && !this.found) {
      this.found = { frame, cmp };
    }
    for (const w of [...this.waiters]) w(frame, { ...msg, cmp });
  }

  /** Tells the library to opt out (reject) or in (accept) in the frame that found the popup; true when it reports success. */
  async act(action: 'optOut' | 'optIn', timeoutMs: number): Promise<boolean> {
    const { frame } = this.found!;
    const resultType = action === 'optOut' ? 'optOutResult' : 'optInResult';
    return new Promise<boolean>((resolve) => {
      const finish = (ok: boolean) => { clearTimeout(timer); remove(); resolve(ok); };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const waiter = (from: Frame, msg: Msg) => { if (from === frame && msg.type === resultType) finish(msg.result === true); };
      const remove = () => { const i = this.waiters.indexOf(waiter); if (i >= 0) this.waiters.splice(i, 1); };
      this.waiters.push(waiter);
      // Not awaited: a page whose script never yields must not hold us past the timer. A rule
      // without this action (some have only an opt-out) throws in the page: that is "not done".
      frame.evaluate(`autoconsentReceiveMessage({ type: ${JSON.stringify(action)} })`).catch(() => finish(false));
    });
  }
}

const current = new WeakMap<Page, LibraryRun>();
const bound = new WeakSet<Page>();

/** Starts the library in every frame of the page; the run collects what it reports. */
export async function startLibrary(page: Page): Promise<LibraryRun> {
  const run = new LibraryRun(page);
  current.set(page, run);
  if (!bound.has(page)) {
    bound.add(page);
    await page.exposeBinding('autoconsentSendMessage', ({ frame }: { frame: Frame }, msg: Msg) => current.get(page)?.receive(frame, msg));
  }
  // A fresh instance per run: the script keeps one per document and would ignore a second injection.
  const inject = (frame: Frame) => frame.evaluate(`delete window.autoconsentReceiveMessage; ${contentScript()}`).catch(() => undefined);
  await Promise.all(page.frames().map(inject));
  return run;
}

export function stopLibrary(run: LibraryRun): void {
  if (current.get(run.page) === run) current.delete(run.page);
}
