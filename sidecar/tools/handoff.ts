// web.handoff: the session is the person's until they press Done in the
// console (or the wait times out, or they press Stop). The action window of
// this call spans the whole hand-off, so what the person's actions load still
// passes the network guard and robots.txt, and their own submits are theirs
// (effect-gate.ts records them as the person's consent).
import { WebcapError } from '../../manifests/errors.js';
import { handing, type Handing } from '../person-input.js';
import { pageTool } from '../tool.js';

const DEFAULT_TIMEOUT_S = 300;
const KEEP_ALIVE_MS = 10_000;
const SETTLE_MS = 10_000;

export const handoff = pageTool('web.handoff', async ({ page, session, ctx }, params) => {
  if (handing.has(session.name)) throw new WebcapError('invalid_params', `session ${session.name} is already handed to the person`);
  const reason = String(params.reason ?? '').slice(0, 500);
  const timeout_s = typeof params.timeout_s === 'number' ? params.timeout_s : DEFAULT_TIMEOUT_S;
  const h: Handing = { page, keys: 0, origins: new Set(), lastInput: Date.now() };
  const noteOrigin = (url: string) => { try { const o = new URL(url).origin; if (o !== 'null') h.origins.add(o); } catch { /* about:blank and the like */ } };
  noteOrigin(page.url());
  const onNavigated = (frame: import('playwright').Frame) => { if (frame === page.mainFrame()) noteOrigin(frame.url()); };
  page.on('framenavigated', onNavigated);
  // A navigation the person started just before Done (a submit): its page is what they hand back.
  let navigating: Promise<unknown> | undefined;
  const onRequest = (r: import('playwright').Request) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigating = page.waitForEvent('load', { timeout: SETTLE_MS }).catch(() => undefined);
  };
  page.on('request', onRequest);
  // A person reading or thinking is not an idle session: the sweeper must leave it open.
  const alive = setInterval(() => { session.lastUsed = Date.now(); }, KEEP_ALIVE_MS);
  handing.set(session.name, h);
  const report = (outcome: string) => ctx.event('handoff_end', session.name, { outcome, origins_visited: [...h.origins], keys_typed: h.keys });
  let outcome = 'failed';
  try {
    ctx.event('handoff_start', session.name, { reason, timeout_s, origin: [...h.origins][0] ?? null });
    const title = await page.title().catch(() => '');
    const reply = await ctx.handOff({ session: session.name, reason, timeout_s, url: page.url(), title, viewport: page.viewportSize() ?? { width: 1280, height: 720 } });
    outcome = reply.outcome;
    if (outcome === 'no_console') {
      throw new WebcapError('consent_denied', `web.handoff: nobody can take over session ${session.name}: no console is serving (start one: \`webcap run --console\`, the daemon, \`webcap mcp\`, or host.console())`, { reason: 'no_console' });
    }
    if (outcome === 'timeout') {
      throw new WebcapError('timeout', `web.handoff: nobody handed session ${session.name} back within ${timeout_s} s${reply.console_url ? ` (console: ${reply.console_url})` : ''}`, { timeout_s, handoff: true });
    }
    if (outcome === 'stopped') throw new WebcapError('consent_denied', `interrupted: the person pressed Stop during the hand-off of session ${session.name}`, { interrupted: true });
  } catch (err) {
    report(outcome);
    throw err;
  } finally {
    handing.delete(session.name);
    clearInterval(alive);
    page.off('framenavigated', onNavigated);
    page.off('request', onRequest);
  }
  await navigating;
  report('handed_back');
  return { handed_back: true, url: page.url(), title: await page.title().catch(() => ''), origins_visited: [...h.origins], keys_typed: h.keys };
});
