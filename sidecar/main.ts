// The sidecar process: JSON-RPC on stdio, one handler per manifest. stdout is
// the wire, so nothing else may write to it.
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { WebcapError, toWebcapError } from '../manifests/errors.js';
import { loadManifests } from '../manifests/load.js';
import {
  BlockedNotification, EffectConsentRequest, EventNotification, SessionQueueNotification, EvidenceRequest, InitRequest, PrelaunchNotification, InvokeRequest, RefuseEndpointNotification,
  RobotsCheckRequest, SecretRequest, SensitiveRequest, ShutdownRequest, StopRequest, ScreencastRequest, FrameNotification, HandoffRequest, InputRequest, type BlockedRequest, type SidecarInit,
} from '../manifests/wire.js';
import { Screencasts } from './screencast.js';
import { dispatchInput } from './person-input.js';
import { captureEvidence } from './evidence.js';
import { RefusedEndpoints } from './guard/refused-endpoints.js';
import { resolveSelector } from './selectors.js';
import { browserSource } from './browser/browser-source.js';
import { EffectGate } from './guard/effect-gate.js';
import { NEW_CONTEXT_CAPABILITIES } from './guard/effect-rules.js';
import { pageFlush } from './guard/redirect-hops.js';
import { proveGuardReachable } from './guard/remote-guard.js';
import { installNetworkGuard, startGuardProxy, type NetworkGuard } from './guard/network-guard.js';
import { politeness } from './politeness.js';
import { secretBook } from './secrets/book.js';
import { Sessions, type Narrowing } from './sessions/sessions.js';
import { SessionTraces } from './trace.js';
import type { Tool, ToolContext } from './tool.js';
import { tools } from './tools/index.js';

console.log = console.info = console.warn = console.error;

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const byId = new Map<string, Tool>(tools.map((t) => [t.id, t]));
/** What the sidecar holds: the tools' context, with every owner's sessions (each call gets its owner's view). */
type SidecarState = Omit<ToolContext, 'sessions'> & { sessions: Sessions };
let ctx: SidecarState | undefined;
// The console's address:port, refused to every page (refused-endpoints.ts); sessions the person stopped.
const refused = new RefusedEndpoints();
const stopped = new Set<string>();
const screencasts = new Screencasts((session, jpeg) => void connection.sendNotification(FrameNotification, { session, jpeg }).catch(() => undefined));

function contextFor(init: SidecarInit): SidecarState {
  const guards = new Map<string, NetworkGuard>();
  const profiles = init.profiles;
  const polite = politeness(profiles);
  // Absent (an older host): both checks on, the safe default.
  const effects = new EffectGate({
    gateRequests: init.effects?.gate_requests ?? true,
    robots: init.effects?.robots ?? true,
    // What goes to the host shows a typed secret as its reference, as every answer does.
    // A request the person's own action sent during a hand-off: theirs, recorded as such.
    onPersonRequest: (session, request) => void connection.sendNotification(EventNotification, { kind: 'person_submit', session, detail: request }).catch(() => undefined),
    ask: {
      consent: (q) => connection.sendRequest(EffectConsentRequest, secretBook.scrub(q)),
      robots: (q) => connection.sendRequest(RobotsCheckRequest, secretBook.scrub(q)),
    },
  });
  // A browser that dies takes its sessions with it, at once: their calls in
  // flight fail (sessions.ts), their slots go to the opens waiting in line.
  const source = browserSource(init, () => {
    const lost = sessions.forgetAll();
    connection.sendNotification(EventNotification, { kind: 'browser_crashed', detail: { sessions: lost.map((s) => ({ session: s.name, owner: s.owner })) } });
  });
  const traces = new SessionTraces(init.trace ?? 'off', init.workspace);
  const sessions: Sessions = new Sessions(init, source, {
    async prepare(name, remote, narrowed) {
      const opts = {
        allowlist: init.network.domains_allowlist,
        // A client's own allowlist narrows the host's for every request this context's pages make.
        ...(narrowed ? { narrowed } : {}),
        denylist: init.network.domains_denylist,
        resolve: init.network.resolve,
        allowPrivate: init.network.allow_private,
        session: name,
        onBlocked: (b: BlockedRequest) => connection.sendNotification(BlockedNotification, secretBook.scrub(b)),
        effects,
        // Absent (an older host): on.
        dlp: init.secrets?.dlp === false ? undefined : secretBook,
        refused,
        stopped,
      };
      // The guard's proxy is what stops redirect hops, for a remote browser too (remote-guard.ts).
      const proxy = await startGuardProxy(opts);
      return {
        options: { proxy: proxy.proxy },
        attach: async (context) => {
          const guard = await installNetworkGuard(context, { ...opts, proxy });
          if (remote && init.browser.remote) await proveGuardReachable(context, proxy, init.browser.remote.endpoint);
          guards.set(name, guard);
          // One entry per context (every scrape makes one): drop it when the context goes, unless the name was reused since.
          context.on('close', () => { if (guards.get(name) === guard) guards.delete(name); });
        },
        abandon: async () => { await proxy.close(); },
      };
    },
    onEvent: (kind, session, detail) => connection.sendNotification(EventNotification, secretBook.scrub({ kind, session, detail })),
    onQueue: (queued) => void connection.sendNotification(SessionQueueNotification, { queued }).catch(() => undefined),
    traces,
  });
  return {
    init, sessions, profiles, effects, traces,
    // A block belongs to the call that caused it; an old one must not explain a new failure.
    forgetBlocked: () => guards.forEach((g) => g.clearBlocked()),
    lastBlocked: (name) => guards.get(name)?.lastBlocked(),
    expectNavigation: (name, url) => guards.get(name)?.expectNavigation(url),
    polite: (session) => polite(session.page.url()),
    resolveSecret: (q) => connection.sendRequest(SecretRequest, q),
    handOff: (ask) => connection.sendRequest(HandoffRequest, ask),
    event: (kind, session, detail) => void connection.sendNotification(EventNotification, secretBook.scrub({ kind, session, detail })).catch(() => undefined),
    async askUser(action, session) {
      noteSecret(traces, action, session);
      const answer = await connection.sendRequest(SensitiveRequest, secretBook.scrub({ ...action, session: session.name, url: session.page.url() }));
      return answer.approved;
    },
    async confirm(action, session) {
      noteSecret(traces, action, session);
      const answer = await connection.sendRequest(SensitiveRequest, secretBook.scrub({ ...action, session: session.name, url: session.page.url() }));
      if (!answer.approved) {
        throw new WebcapError('consent_denied', `${action.capability}: ${answer.reason ?? `the user did not approve (${action.reason.replace('_', ' ')})`}`, { reason: action.reason, ...(answer.timed_out ? { timed_out: true } : {}) });
      }
      // The user just approved this submission: its own request to this origin is not asked about again.
      if (action.reason === 'form_submit') effects.cover(session.name, session.page.url());
    },
  };
}

connection.onRequest(InitRequest, (init) => {
  const declared = new Set(loadManifests().filter((m) => m.provider === 'sidecar').map((m) => m.id));
  const missing = [...declared].filter((id) => !byId.has(id));
  if (missing.length) process.stderr.write(`webcap sidecar: no handler yet for ${missing.join(', ')}\n`);
  for (const e of init.refuse_endpoints ?? []) refused.add(e.host, e.port);
  ctx = contextFor(init);
  return { pid: process.pid };
});

connection.onNotification(RefuseEndpointNotification, (e) => refused.add(e.host, e.port));

connection.onRequest(EvidenceRequest, async (p) => {
  const session = ctx?.sessions.list().find((s) => s.name === p.session);
  if (!session) return { url: '', title: '' };
  let selector: string | undefined;
  try { selector = p.selector ? resolveSelector(p.selector, ctx!.profiles, session.page.url()) : undefined; } catch { selector = undefined; }
  return captureEvidence(session.page, selector);
});

connection.onRequest(ScreencastRequest, async ({ session: name, on }) => {
  const session = ctx?.sessions.list().find((s) => s.name === name);
  if (!on || !session) { await screencasts.stop(name); return { on: false }; }
  return { on: await screencasts.start(name, session.page, ctx!.init.browser.viewport).catch(() => false) };
});

// Stop: nothing more leaves the session's pages (the guard refuses it) and what they load now is stopped.
connection.onRequest(StopRequest, async ({ session: name }) => {
  const session = ctx?.sessions.list().find((s) => s.name === name);
  stopped.add(name);
  for (const page of session?.context.pages() ?? []) await page.evaluate('window.stop()').catch(() => undefined);
  return { stopped: Boolean(session) };
});

// The person's input during a hand-off: only a session being handed off takes it (person-input.ts).
connection.onRequest(InputRequest, async ({ session, events }) => ({ delivered: Array.isArray(events) ? await dispatchInput(session, events.slice(0, 200)) : 0 }));

connection.onNotification(PrelaunchNotification, (p) => ctx?.sessions.prelaunch(p?.spare === true));

/** A client's allowlist as the wire brings it; anything malformed is refused, never read as "no narrowing". */
function narrowing(value: unknown): Narrowing | undefined {
  if (value === undefined) return undefined;
  const n = value as Narrowing;
  if (!n || typeof n.client !== 'string' || !Array.isArray(n.domains_allowlist) || !n.domains_allowlist.every((r) => typeof r === 'string')) {
    throw new WebcapError('invalid_params', 'the call carries a malformed client allowlist');
  }
  return { client: n.client, domains_allowlist: [...n.domains_allowlist] };
}

connection.onRequest(InvokeRequest, async ({ capability, params, owner, narrowed }, token) => {
  try {
    if (!ctx) throw new WebcapError('internal', 'sidecar used before webcap/init');
    if (typeof owner !== 'string' || !owner) throw new WebcapError('invalid_params', `${capability}: the call names no owner; every call belongs to a caller`);
    const tool = byId.get(capability);
    if (!tool) throw new WebcapError('unknown_capability', `the sidecar has no handler for ${capability}`);
    ctx.forgetBlocked();
    // Every tool sees only its caller's sessions.
    const mine: ToolContext = { ...ctx, sessions: ctx.sessions.for(owner, narrowing(narrowed)) };
    // A new call on a stopped session is the caller's fresh intent: the stop ended with the run it stopped.
    const named = (params.session as string | undefined) ?? mine.sessions.current ?? undefined;
    if (named) stopped.delete(named);
    // The action's window: requests its handlers send (until it settles) are its effects (effect-gate.ts).
    const session = NEW_CONTEXT_CAPABILITIES.has(capability) ? undefined : ((params.session as string | undefined) ?? mine.sessions.current ?? undefined);
    const window = ctx.effects.begin(capability, session);
    let result: Awaited<ReturnType<Tool['handle']>> | undefined;
    let error: unknown;
    try {
      result = await inBrowser(mine, capability, session, () => tool.handle(mine, params));
    } catch (err) {
      error = err;
    }
    // A refused effect explains the action's outcome better than whatever the page did next (an aborted navigation, a timeout).
    const page = mine.sessions.list().find((s) => s.name === (session ?? mine.sessions.current))?.page;
    const flush = page && pageFlush(page);
    const refused = await ctx.effects.end(window, flush?.run, flush?.ordered);
    // web.close did what was asked (the session is gone) even if an unload beacon was refused on the way out.
    if (refused && capability !== 'web.close') {
      // A web.open that fails leaves no session behind (as when its page fails to load).
      if (capability === 'web.open' && typeof result?.session === 'string') await mine.sessions.close(result.session).catch(() => undefined);
      throw refused;
    }
    if (error !== undefined) {
      const failedIn = mine.sessions.list().find((s) => s.name === (session ?? mine.sessions.current));
      if (failedIn) ctx.traces.failed(failedIn.context);
      throw error;
    }
    // The host gave up on this call (its timeout) while it waited for a slot or a page: a session it
    // opened would belong to nobody and hold a slot until the idle sweep. Closed, so the line moves on.
    if (token.isCancellationRequested && typeof result?.session === 'string' && (capability === 'web.open' || result.opened_session === true)) {
      await mine.sessions.close(result.session).catch(() => undefined);
    }
    // Every answer shows a secret this sidecar typed as {{secret:NAME}}, wherever the page copied it.
    return secretBook.scrub(result!);
  } catch (err) {
    const e = secretBook.scrub(toWebcapError(err).toJSON());
    return new ResponseError(-32000, e.message, e);
  }
});

/**
 * Runs a call that acts in a session's browser. If that browser dies meanwhile
 * the call fails at once with browser_crashed, whatever its page was waiting
 * for, and any error it ends with after the loss is the crash.
 */
// What a call sees of a browser dying under it, besides browser_crashed itself.
const CRASH_LOOKALIKES = new Set(['internal', 'timeout', 'navigation_failed', 'selector_not_found', 'stale_ref']);

async function inBrowser<T>(mine: ToolContext, capability: string, session: string | undefined, body: () => Promise<T>): Promise<T> {
  const generation = mine.sessions.generation;
  const target = session && mine.sessions.list().find((s) => s.name === session);
  // Taken before the call runs: a web.close lets go of its session at once.
  const lost = target ? mine.sessions.lost(target) : undefined;
  const work = body();
  try {
    return await (lost ? Promise.race([work, lost]) : work);
  } catch (err) {
    const afterLoss = mine.sessions.generation !== generation;
    if (!afterLoss || (err instanceof WebcapError && !CRASH_LOOKALIKES.has(err.code))) throw err;
    throw new WebcapError('browser_crashed', `the browser went away while ${capability} ran; its sessions are gone and the next web.open starts a new one`, { capability });
  } finally {
    work.catch(() => undefined);
  }
}

async function shutdown(): Promise<void> {
  await ctx?.sessions.closeAll().catch(() => undefined);
}

connection.onRequest(ShutdownRequest, async () => {
  await shutdown();
  setImmediate(() => process.exit(0));
});

// The host went away (closed our stdin): close Chromium and leave.
connection.onClose(() => void shutdown().finally(() => process.exit(0)));
process.stdin.on('end', () => void shutdown().finally(() => process.exit(0)));
connection.listen();

/** A typed secret or a sensitive field on this page: its trace must not be kept. */
function noteSecret(traces: SessionTraces, action: { reason: string; secret?: string }, session: { context: import('playwright').BrowserContext }): void {
  if (action.secret !== undefined || action.reason === 'password_field' || action.reason === 'payment_field') traces.secret(session.context, `a ${action.reason.replace('_', ' ')} was typed in it`);
}
