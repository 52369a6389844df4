// web.open (new context) and web.navigate (same context).
import type { Page, Response } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import type { BlockedRequest } from '../../manifests/wire.js';
import { mapError } from '../errors.js';
import { guardRefusal } from '../guard/guard-refusal.js';
import { flushAtLoad } from '../guard/load-flush.js';
import { documentTitle, flushReadingTitle } from '../guard/redirect-hops.js';
import { defineTool, pageTool } from '../tool.js';

type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'commit';

/** `loaded`: told when the page loaded, so the effect gate's flush can start there (PageCall.inputDone). */
export async function go(page: Page, url: string, params: { wait_until?: WaitUntil }, timeout: number, blocked: () => BlockedRequest | undefined, loaded?: (flushed: Promise<unknown>) => void) {
  const waitUntil = params.wait_until ?? 'load';
  // The effect gate's flush starts when the load reaches the page's watch, before goto() returns (load-flush.ts).
  const atLoad = loaded && (waitUntil === 'load' || waitUntil === 'domcontentloaded') ? flushAtLoad(page, waitUntil) : undefined;
  let response: Response | null;
  let early: Promise<string> | undefined;
  try {
    response = await page.goto(url, { waitUntil, timeout });
  } finally {
    early = atLoad?.settled();
  }
  // The guard's proxy answers a refused plain-http redirect hop with a marked 403.
  const refused = guardRefusal(response, url, blocked());
  if (refused) throw refused;
  const status = response?.status() ?? null;
  if (status !== null && status >= 400) {
    throw new WebcapError('http_error', `${page.url()} answered HTTP ${status}`, { status, url: page.url() });
  }
  // After 'commit' the new document may not run yet: Playwright's call waits for it. Else the title comes
  // with the effect gate's flush (one round trip for both), or apart when the page is not watched yet.
  if (params.wait_until === 'commit') return { url: page.url(), title: await page.title(), status };
  const titled = loaded && (early ?? flushReadingTitle(page));
  if (titled) loaded!(titled);
  const title = await (titled ?? documentTitle(page)).catch(() => page.title());
  return { url: page.url(), title, status };
}

export const open = defineTool('web.open', async (ctx, params) => {
  const timeout = params.timeout ?? ctx.init.browser.default_timeout_ms;
  const started = Date.now();
  // Waiting for a free session slot and loading the page share one timeout.
  // storage_state: set by the host for web.open {profile} (already decrypted and cut to allowlisted origins).
  const profile = params.keep_state ? { state: params.storage_state } : undefined;
  const session = await ctx.sessions.open(params.session, params.viewport, timeout, profile);
  try {
    await ctx.polite(session);
    ctx.expectNavigation?.(session.name, params.url);
    // The effect gate's flush after the load reads the title too, as for web.navigate (one round trip, not two).
    const loaded = (flushed: Promise<unknown>) => ctx.effects.inputDone(session.name, () => flushed, true);
    const page = await go(session.page, params.url, params, Math.max(1000, timeout - (Date.now() - started)), () => ctx.lastBlocked(session.name), loaded);
    return { session: session.name, ...page };
  } catch (err) {
    const mapped = mapError(err, { url: params.url, blocked: ctx.lastBlocked(session.name) });
    // A session whose first page failed is of no use to anyone; don't let it hold a slot.
    await ctx.sessions.close(session.name, { failed: true, announce: true }).catch(() => undefined);
    throw mapped;
  } finally {
    // The open's own call ends here: idleness counts from the end of the load, not the start.
    session.calls -= 1;
    session.lastUsed = Date.now();
  }
});

export const navigate = pageTool('web.navigate', async ({ page, session, timeout, ctx, inputDone }, params) => {
  await ctx.polite(session);
  ctx.expectNavigation?.(session.name, params.url);
  return go(page, params.url, params, timeout, () => ctx.lastBlocked(session.name), inputDone);
});

export const close = defineTool('web.close', async (ctx, params) => {
  // The host asks for the storage of a profile's session (to save it); it never reaches the caller.
  const state = params.storage_state ? await ctx.sessions.storageOf(ctx.sessions.get(params.session)) : undefined;
  // Where the session's trace went ([report] trace) is part of the answer, so the chain entry that closed it links it.
  const { closed, current, ...trace } = await ctx.sessions.close(params.session);
  return state ? { ok: true, closed, current, ...trace, storage_state: state } : { ok: true, closed, current, ...trace };
});
