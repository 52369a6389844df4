// The sidecar process: JSON-RPC on stdio, one handler per manifest. stdout is
// the wire, so nothing else may write to it.
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { WebcapError, toWebcapError } from '../manifests/errors.js';
import { loadManifests } from '../manifests/load.js';
import {
  BlockedNotification, EffectConsentRequest, EventNotification, InitRequest, PrelaunchNotification, InvokeRequest, RobotsCheckRequest,
  SensitiveRequest, ShutdownRequest, type BlockedRequest, type SidecarInit,
} from '../manifests/wire.js';
import { browserSource } from './browser-source.js';
import { EffectGate } from './effect-gate.js';
import { NEW_CONTEXT_CAPABILITIES } from './effect-rules.js';
import { orderedFlush } from './redirect-hops.js';
import { proveGuardReachable } from './remote-guard.js';
import { installNetworkGuard, startGuardProxy, type NetworkGuard } from './network-guard.js';
import { politeness } from './politeness.js';
import { Sessions } from './sessions.js';
import type { Tool, ToolContext } from './tool.js';
import { tools } from './tools/index.js';

console.log = console.info = console.warn = console.error;

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const byId = new Map<string, Tool>(tools.map((t) => [t.id, t]));
let ctx: ToolContext | undefined;

function contextFor(init: SidecarInit): ToolContext {
  const guards = new Map<string, NetworkGuard>();
  const profiles = init.profiles;
  const polite = politeness(profiles);
  // Absent (an older host): both checks on, the safe default.
  const effects = new EffectGate({
    gateRequests: init.effects?.gate_requests ?? true,
    robots: init.effects?.robots ?? true,
    ask: {
      consent: (q) => connection.sendRequest(EffectConsentRequest, q),
      robots: (q) => connection.sendRequest(RobotsCheckRequest, q),
    },
  });
  const source = browserSource(init, () => {
    sessions.forgetAll();
    connection.sendNotification(EventNotification, { kind: 'browser_disconnected' });
  });
  const sessions: Sessions = new Sessions(init, source, {
    async prepare(name, remote) {
      const opts = {
        allowlist: init.network.domains_allowlist,
        denylist: init.network.domains_denylist,
        resolve: init.network.resolve,
        allowPrivate: init.network.allow_private,
        session: name,
        onBlocked: (b: BlockedRequest) => connection.sendNotification(BlockedNotification, b),
        effects,
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
    onEvent: (kind, session, detail) => connection.sendNotification(EventNotification, { kind, session, detail }),
  });
  return {
    init, sessions, profiles, effects,
    // A block belongs to the call that caused it; an old one must not explain a new failure.
    forgetBlocked: () => guards.forEach((g) => g.clearBlocked()),
    lastBlocked: (name) => guards.get(name)?.lastBlocked(),
    polite: (session) => polite(session.page.url()),
    async askUser(action, session) {
      const answer = await connection.sendRequest(SensitiveRequest, { ...action, session: session.name, url: session.page.url() });
      return answer.approved;
    },
    async confirm(action, session) {
      const answer = await connection.sendRequest(SensitiveRequest, { ...action, session: session.name, url: session.page.url() });
      if (!answer.approved) {
        throw new WebcapError('consent_denied', `${action.capability}: the user did not approve (${action.reason.replace('_', ' ')})${answer.reason ? `: ${answer.reason}` : ''}`, { reason: action.reason });
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
  ctx = contextFor(init);
  return { pid: process.pid };
});

connection.onNotification(PrelaunchNotification, () => ctx?.sessions.prelaunch());

connection.onRequest(InvokeRequest, async ({ capability, params }) => {
  try {
    if (!ctx) throw new WebcapError('internal', 'sidecar used before webcap/init');
    const tool = byId.get(capability);
    if (!tool) throw new WebcapError('unknown_capability', `the sidecar has no handler for ${capability}`);
    ctx.forgetBlocked();
    // The action's window: requests its handlers send (until it settles) are its effects (effect-gate.ts).
    const session = NEW_CONTEXT_CAPABILITIES.has(capability) ? undefined : ((params.session as string | undefined) ?? ctx.sessions.current ?? undefined);
    const window = ctx.effects.begin(capability, session);
    let result: Awaited<ReturnType<Tool['handle']>> | undefined;
    let error: unknown;
    try {
      result = await tool.handle(ctx, params);
    } catch (err) {
      error = err;
    }
    // A refused effect explains the action's outcome better than whatever the page did next (an aborted navigation, a timeout).
    const page = ctx.sessions.list().find((s) => s.name === (session ?? ctx!.sessions.current))?.page;
    const ordered = page && orderedFlush(page);
    const refused = await ctx.effects.end(window, ordered ?? (page && (() => page.evaluate('new Promise((r) => setTimeout(r, 0))'))), ordered !== undefined);
    // web.close did what was asked (the session is gone) even if an unload beacon was refused on the way out.
    if (refused && capability !== 'web.close') {
      // A web.open that fails leaves no session behind (as when its page fails to load).
      if (capability === 'web.open' && typeof result?.session === 'string') await ctx.sessions.close(result.session).catch(() => undefined);
      throw refused;
    }
    if (error !== undefined) throw error;
    return result!;
  } catch (err) {
    const e = toWebcapError(err);
    return new ResponseError(-32000, e.message, e.toJSON());
  }
});

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
