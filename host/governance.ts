// A host's governance, composed from its subsystems (host/governance/):
// the causal chain, the shared store, the console and the consent gate, the
// browser link, the policy chain (policy-chain.ts says its order and why) and
// the innermost step that runs an approved call. Each is built by one factory;
// this file only wires them, in the order they depend on each other.
import type { Logger } from 'pino';
import type { WebcapError } from '../manifests/errors.js';
import type { Manifest } from '../manifests/load.js';
import type { RefuseEndpoint } from '../manifests/wire.js';
import type { ConsoleHub } from './console/hub.js';
import type { WebcapConfig } from './config/types.js';
import type { HostOptions } from './host.js';
import { metrics } from './metrics/metrics.js';
import type { CallContext, CallResult } from './policies/types.js';
import { Profiles } from './profiles/manager.js';
import { Redactor } from './redact/redactor.js';
import { redactingLogger } from './redact/logger.js';
import type { HealDeps } from './replay/heal.js';
import { withStepShot, type ShotDeps } from './report/step-shots.js';
import { RobotsCache } from './robots/robots.js';
import { SessionTracker } from './sidecar-link/session-tracker.js';
import { StoreWatch } from './store/watch.js';
import { BlockedRequests } from './governance/blocked-requests.js';
import { buildBrowserLink } from './governance/browser-link.js';
import { openChainWriter } from './governance/chain-writer.js';
import { buildConsentGate, buildConsoleHub, openStore } from './governance/consent.js';
import { planRecords } from './governance/plan-records.js';
import { buildPolicyChain } from './governance/policy-chain.js';
import { sessionEnds } from './governance/session-ends.js';
import { missingSecrets } from './governance/missing-secrets.js';
import { buildTerminal, DEFAULT_OWNER } from './governance/terminal.js';

export { DEFAULT_OWNER };

export interface Governance {
  run(call: CallContext): Promise<CallResult>;
  /** Sessions open now (learned from results and the sidecar's events): every owner's, or one owner's. */
  openSessions(owner?: string): string[];
  recordUnknown(id: string, planId: string | undefined, error: WebcapError): Promise<void>;
  closeSession(session: string, planId: string, owner: string): Promise<void>;
  /** A plan's end in the chain: its result or its error, so a crash never leaves a plan without an outcome. */
  recordPlanEnd(planId: string, outcome: { ok: true; result: unknown } | { ok: false; error: WebcapError }): Promise<void>;
  /** A caller that is done (a plan that ended): forget what is kept about it. */
  ownerDone(owner: string): void;
  readonly redactor: Redactor;
  readonly log: Logger;
  /** Healing replay: find a fingerprinted element on the session's page; record what healed. */
  readonly heal: HealDeps;
  /** Start the sidecar and have it launch the browser now (an MCP server exists to drive one). */
  warm(): void;
  /** The person's window: questions, sessions, chain tail, Stop (served by host/console/server.ts). */
  readonly console: ConsoleHub;
  /** An address:port no governed browser may reach (the console). */
  refuse(endpoint: RefuseEndpoint): void;
  /** The session's page as the agent should see it after an action (host/mcp/after-action.ts); undefined if the backend cannot tell. */
  pageView(session: string, mode: 'diff' | 'snapshot'): Promise<PageView | undefined>;
  close(): Promise<void>;
}

/** What changed on a page since the agent's last view: nothing, the changed lines, or the whole new view. */
export type PageView = { changed: false } | { changed: true; kind: 'diff' | 'snapshot'; url: string; text: string };

export function buildGovernance(config: WebcapConfig, manifests: Manifest[], options: HostOptions): Governance {
  const redactor = new Redactor(config.redaction);
  const log = redactingLogger(config.logging, redactor);
  const chain = openChainWriter(config, options.entryVia);
  const sessions = new SessionTracker();
  // Queued: the opens waiting for a slot, as the sidecar reports them (sidecar/sessions/slots.ts).
  const unlistSessions = metrics.sessions(() => ({ open: sessions.list().length, queued: link.sidecar.queued }));
  // A store error while the sidecar asks mid-action: the sidecar refuses the effect, the call reports the store.
  const storeWatch = new StoreWatch();
  const { store, release: releaseStore } = openStore(config, chain, redactor);
  const hub = buildConsoleHub(config, chain, redactor, sessions, () => link);
  const gate = buildConsentGate(config, options, store, hub, chain, redactor);
  const profiles = new Profiles(config, gate, async (event, session, detail, planId) => {
    await chain.append({ kind: 'event', plan_id: planId ?? null, session, result: { event, ...detail } });
  });
  const robots = new RobotsCache(config, { shared: store.values('robots') });
  const blocked = new BlockedRequests(chain, redactor);
  const link = buildBrowserLink({ config, log, redactor, chain, sessions, blocked, gate, profiles, robots, storeWatch, hub });
  const { sidecar, browser } = link;
  const terminal = buildTerminal({ config, log, redactor, gate, profiles, browser, robots, sessions, storeWatch, missingSecrets: missingSecrets(config, options, hub, chain, redactor) });
  const run = buildPolicyChain({ config, manifests, chain, redactor, hub, browser, robots, store, gate, rerun: (call) => governance.run(call) }, terminal);
  const shots: ShotDeps = { mode: config.report.screenshots, invoke: (id, p, ms, owner) => sidecar.invoke(id, p, ms, owner), append: chain.append, hasSession: (s) => s !== undefined && sessions.has(s) };
  const ends = sessionEnds(chain, browser, profiles, sessions);

  const governance: Governance = {
    redactor, log, console: hub, ...planRecords(chain, redactor), closeSession: ends.closeSession,
    heal: {
      chainPath: config.chain.path,
      probe: async (fingerprint, session, owner = DEFAULT_OWNER) => await sidecar.invoke('webcap.heal_probe', { fingerprint, ...(session ? { session } : {}) }, 10_000, owner) as Awaited<ReturnType<HealDeps['probe']>>,
      record: async (entry) => { await chain.append(redactor.redact(entry)); },
    },
    async run(call) {
      // Every call belongs to an owner, and reaches only the sessions that owner opened (the sidecar enforces it too).
      call.owner ??= DEFAULT_OWNER;
      call.scope ??= sessions.scopeOf(call.owner);
      call.session ??= sessions.currentOf(call.owner);
      // The first browser call starts the sidecar process now (no browser yet), so its start-up (Node + Playwright, ~0.4 s) overlaps the policy checks.
      if (call.manifest.provider === 'sidecar') {
        browser.prestart();
        if (browser.name !== 'sidecar') call.via = { ...call.via, provider: browser.name };
      }
      try {
        return await withStepShot(shots, call, async () => (await run)(call));
      } finally {
        await blocked.flush(call.planId);
      }
    },
    warm: () => browser.prelaunch(true),
    ownerDone: (owner) => sessions.forgetOwner(owner),
    openSessions: (owner) => (owner === undefined ? sessions.list() : sessions.of(owner)),
    refuse: (endpoint) => sidecar.refuse(endpoint),
    // Not a call: a read of the page the caller just acted on, part of that action's answer (its chain entry is the action's).
    pageView: async (session, mode) => {
      const owner = sessions.ownerOf(session);
      return browser.name === 'sidecar' && owner !== undefined
        ? (await sidecar.invoke('webcap.page_view', { session, mode }, config.capabilities.browser.default_timeout_ms, owner)) as PageView
        : undefined;
    },
    async close() {
      await ends.closeProfileSessions();
      await browser.close();
      unlistSessions();
      await releaseStore();
      await (await chain.ready.catch(() => undefined))?.close();
      log.flush?.();
    },
  };
  return governance;
}
