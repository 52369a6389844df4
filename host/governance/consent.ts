// The shared store, the console's hub and the consent gate: who is asked,
// where remembered approvals live, and how every answer reaches the chain.
import { chooseAsker } from '../consent/asker.js';
import { ConsentGate } from '../consent/gate.js';
import { clientChannels } from '../consent/client-channel.js';
import { ConsoleHub } from '../console/hub.js';
import type { WebcapConfig } from '../config/types.js';
import type { HostOptions } from '../host.js';
import { metrics } from '../metrics/metrics.js';
import type { BrowserBackend } from '../providers/browser-backend.js';
import type { Redactor } from '../redact/redactor.js';
import type { SidecarClient } from '../sidecar-link/sidecar-client.js';
import type { SessionTracker } from '../sidecar-link/session-tracker.js';
import { acquireStore } from '../store/index.js';
import type { ChainWriter } from './chain-writer.js';

/**
 * Budgets, politeness, robots.txt, approvals (and, through storeFor, the
 * result cache and search quotas): this process's, or Redis's with [store] url.
 * An outage and the recovery each become one chain event.
 */
export function openStore(config: WebcapConfig, chain: ChainWriter, redactor: Redactor) {
  const acquired = acquireStore(config);
  acquired.store.onEvent((e) => { void chain.append({ kind: 'event', session: null, result: { event: e.kind, ...(e.kind === 'store_unavailable' ? { reason: redactor.redactString(e.reason) } : {}) } }).catch(() => undefined); });
  return acquired;
}

/** The console's hub exists with every host (cheap while nobody serves it); host.console() serves it. The browser is reached late: it is built after the hub. */
export function buildConsoleHub(config: WebcapConfig, chain: ChainWriter, redactor: Redactor, sessions: SessionTracker, link: () => { sidecar: SidecarClient; browser: BrowserBackend }): ConsoleHub {
  const bySidecar = () => link().browser.name === 'sidecar';
  const hub = new ConsoleHub({
    evidence: (session, selector) => (bySidecar() ? link().sidecar.evidence({ session, ...(selector ? { selector } : {}) }) : Promise.resolve(undefined)),
    stopSession: (session) => link().sidecar.stop(session),
    record: async (session, planId, detail) => { await chain.append({ kind: 'event', ...chain.viaFor(session), session, plan_id: planId, result: redactor.redact(detail) }); },
    redact: (value) => redactor.redact(value),
    timeoutS: config.consent.timeout_s,
    screencast: (session, on) => (bySidecar() ? link().sidecar.screencast(session, on) : Promise.resolve(false)),
    input: (session, events) => link().sidecar.input(session, events),
  }, () => sessions.list());
  chain.ready.then((c) => c.watch((entry) => hub.entry(entry)), () => undefined);
  return hub;
}

export function buildConsentGate(config: WebcapConfig, options: HostOptions, approvals: ReturnType<typeof acquireStore>['store'], hub: ConsoleHub, chain: ChainWriter, redactor: Redactor): ConsentGate {
  return new ConsentGate({
    approvals: approvals.values('approvals'),
    scope: options.approvalScope,
    asker: hub.asker(chooseAsker({ ask: options.ask, yes: options.yes, nonInteractive: config.consent.non_interactive, isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY) })),
    // A [[mcp.clients]] principal's own consent channel narrows the channels above for its questions.
    channelOf: clientChannels(config.mcp.clients, options.ask, (inner) => hub.asker(inner)),
    config: config.consent,
    // Over HTTP each MCP client approves for itself: its remembered yes is not another client's,
    // and with [[mcp.clients]] not another principal's either.
    approverOf: (session) => { const via = options.entryVia?.(session); return via && Object.keys(via).length ? JSON.stringify(via) : undefined; },
    ownerOf: (q) => options.entryVia?.(q.session)?.client,
    record: async (r) => {
      metrics.consent(r.reason, r.source === 'remembered' ? 'remembered' : r.approved ? 'approved' : 'denied');
      // Which channel answered (terminal, console, MCP elicitation, …), and whether nobody could be asked or the wait timed out.
      const details = { ...(r.channel ? { channel: r.channel } : {}), ...(r.nobody ? { nobody_asked: true } : {}), ...(r.timed_out ? { timed_out: true } : {}) };
      await chain.append({ kind: 'consent', ...chain.viaFor(r.session), capability: r.capability, session: r.session ?? null, params: redactor.redact({ origin: r.origin, selector: r.selector, reason: r.reason }), decision: { decision: r.approved ? 'approved' : 'denied', policy: 'consent', reason: `${r.reason} (${r.source})`, ...(Object.keys(details).length ? { details } : {}) } });
    },
  });
}
