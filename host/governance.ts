// The one place the policy chain is composed (DESIGN.md order, one change):
// audit → enabled → validate → allowlist → ssrf → robots → budget → consent →
// forward. SSRF runs before robots because the robots policy connects to the
// target host (GET /robots.txt): a host resolving to a private address must be
// refused before anything connects to it, not after. Between ssrf and robots,
// warm-up (policies/warm-up.ts) has the sidecar launch Chromium for a web.open;
// it decides nothing.
// Also routes what the sidecar reports (blocked requests, sensitive steps)
// into the same chain and consent gate.
import type { Logger } from 'pino';
import { WebcapError } from '../manifests/errors.js';
import type { Manifest } from '../manifests/load.js';
import { CausalChain, type AppendOptions } from './chain/chain.js';
import { chooseAsker } from './consent/asker.js';
import { ConsentGate } from './consent/gate.js';
import type { WebcapConfig } from './config/types.js';
import type { HostOptions } from './host.js';
import { allowlistPolicy } from './policies/allowlist.js';
import { auditPolicy } from './policies/audit.js';
import { budgetPolicy } from './policies/budget.js';
import { compose } from './policies/compose.js';
import { consentPolicy } from './policies/consent.js';
import { enabledPolicy } from './policies/enabled.js';
import { robotsPolicy } from './policies/robots.js';
import { sessionScopePolicy } from './policies/session-scope.js';
import { ssrfPolicy } from './policies/ssrf.js';
import type { CallContext, CallResult } from './policies/types.js';
import { compileValidators, validatePolicy } from './policies/validate.js';
import { warmUpPolicy } from './policies/warm-up.js';
import { writeAheadPolicy } from './policies/write-ahead.js';
import { chainOptions } from './chain/options.js';
import { PolitenessGate } from './budget/politeness.js';
import { siteRates } from './budget/site-rates.js';
import { Redactor } from './redact/redactor.js';
import { learnTypedSecret } from './redact/typed-text.js';
import { redactingLogger } from './redact/logger.js';
import { robotsForNavigation } from './robots/navigation.js';
import { RobotsCache } from './robots/robots.js';
import { chooseBackend } from './providers/choose-backend.js';
import { hostProviders } from './providers/index.js';
import { SessionTracker } from './session-tracker.js';
import { Profiles } from './profiles/manager.js';
import { closeWithProfile, withProfiles } from './profiles/terminal.js';
import { SidecarClient } from './sidecar-client.js';
import { acquireStore } from './store/index.js';
import { sidecarInit } from './sidecar-init.js';
import type { HealDeps } from './replay/heal.js';
import { withStepShot, type ShotDeps } from './report/step-shots.js';

export interface Governance {
  run(call: CallContext): Promise<CallResult>;
  currentSession(): string | undefined;
  /** Sessions open now (learned from results and the sidecar's idle-close events). */
  openSessions(): string[];
  recordUnknown(id: string, planId: string | undefined, error: WebcapError): Promise<void>;
  closeSession(session: string, planId: string): Promise<void>;
  readonly redactor: Redactor;
  readonly log: Logger;
  /** Healing replay (issue 14): find a fingerprinted element on the session's page; record what healed. */
  readonly heal: HealDeps;
  /** Start the sidecar and have it launch the browser now (an MCP server exists to drive one). */
  warm(): void;
  /** The session's page as the agent should see it after an action (host/mcp/after-action.ts); undefined if the backend cannot tell. */
  pageView(session: string, mode: 'diff' | 'snapshot'): Promise<PageView | undefined>;
  close(): Promise<void>;
}

/** What changed on a page since the agent's last view: nothing, the changed lines, or the whole new view. */
export type PageView = { changed: false } | { changed: true; kind: 'diff' | 'snapshot'; url: string; text: string };

export function buildGovernance(config: WebcapConfig, manifests: Manifest[], options: HostOptions): Governance {
  const redactor = new Redactor(config.redaction);
  const log = redactingLogger(config.logging, redactor);
  const chainReady = CausalChain.open(config.chain.path, chainOptions(config));
  chainReady.catch(() => undefined);
  const append = async (entry: Parameters<CausalChain['append']>[0], options?: AppendOptions) => (await chainReady).append(entry, options);
  // Entries about what already happened (events, blocked requests, a call's result) need no fdatasync of their own: the next durable append (an intent) carries them.
  const after = { durable: false };
  const sessions = new SessionTracker();
  // Entries not written by the audit policy (consent, events, blocked requests) are labelled by whoever owns the session.
  const viaFor = (session: string | undefined | null) => {
    const via = options.entryVia?.(session ?? undefined);
    return via && Object.keys(via).length ? { via } : {};
  };
  const blocked = new Map<string, { count: number; hosts: Set<string>; examples: string[] }>();

  // Budgets, politeness, robots.txt, approvals (and, through storeFor, the
  // result cache and search quotas): this process's, or Redis's with [store] url.
  const { store, release: releaseStore } = acquireStore(config);
  // An outage and the recovery each become one chain event.
  store.onEvent((e) => { void append({ kind: 'event', session: null, result: { event: e.kind, ...(e.kind === 'store_unavailable' ? { reason: redactor.redactString(e.reason) } : {}) } }).catch(() => undefined); });

  const gate = new ConsentGate({
    approvals: store.values('approvals'),
    asker: chooseAsker({ ask: options.ask, yes: options.yes, nonInteractive: config.consent.non_interactive, isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY) }),
    config: config.consent,
    record: async (r) => { await append({ kind: 'consent', ...viaFor(r.session), capability: r.capability, session: r.session ?? null, params: redactor.redact({ origin: r.origin, selector: r.selector, reason: r.reason }), decision: { decision: r.approved ? 'approved' : 'denied', policy: 'consent', reason: `${r.reason} (${r.source})` } }); },
  });

  const profiles = new Profiles(config, gate, async (event, session, detail, planId) => {
    await append({ kind: 'event', plan_id: planId ?? null, session, result: { event, ...detail } });
  });

  const sidecar = new SidecarClient(() => sidecarInit(config), {
    onBlocked(b) {
      // Summarised per call: the audit entry of the call that caused them is followed by one network_blocked entry.
      const s = blocked.get(b.session) ?? { count: 0, hosts: new Set<string>(), examples: [] };
      s.count += 1;
      s.hosts.add(`${b.host} (${b.code})`);
      if (s.examples.length < 5) s.examples.push(redactor.redact(`${b.kind} ${b.url}`) as string);
      blocked.set(b.session, s);
      log.info({ session: b.session, host: b.host, code: b.code }, 'request blocked in the browser');
    },
    onEvent(e) {
      if (e.kind === 'browser_disconnected') sessions.forgetAll();
      if (e.session && e.kind === 'session_idle_closed') sessions.closed(e.session);
      // An idle-closed profile session hands back its storage for saving (never into the chain).
      const { storage_state: state, ...detail } = (e.detail ?? {}) as Record<string, unknown>;
      void append({ kind: 'event', ...viaFor(e.session), session: e.session ?? null, result: redactor.redact({ event: e.kind, ...detail }) }, after).catch(() => undefined);
      if (e.session && e.kind === 'session_idle_closed') void profiles.closed(e.session, state as never).catch((err: unknown) => log.warn({ err: String(err) }, 'profile save after idle close failed'));
    },
    async onSensitive(a) {
      if (a.secret) redactor.addSecret(a.secret);
      return gate.confirmSensitive(a);
    },
    // Checks at the effect (sidecar/effect-gate.ts): a request an action caused, a navigation the page made.
    onEffectConsent: (q) => gate.confirmRequest(q),
    onRobotsCheck: (q) => robotsForNavigation(robots, config, q.url),
  }, log);

  // What runs approved browser calls: the sidecar, or a Playwright MCP server (recorded on each chain entry).
  const browser = chooseBackend(config, log, sidecar);

  const flushBlocked = async (planId: string | undefined) => {
    for (const [session, s] of blocked) {
      blocked.delete(session);
      await append({ kind: 'network_blocked', ...viaFor(session), plan_id: planId ?? null, session, result: { count: s.count, hosts: [...s.hosts], examples: s.examples } }, after);
    }
  };

  const terminal = withProfiles(profiles, async (call: CallContext): Promise<CallResult> => {
    const timeout = (call.params.timeout as number | undefined) ?? config.capabilities.browser.default_timeout_ms;
    if (call.manifest.provider === 'host') {
      const provider = hostProviders[call.capability];
      if (!provider) throw new WebcapError('internal', `no host provider for ${call.capability}`);
      return provider(call.params, { config, log, redactor, gate, call, sidecar: (id, params, ms) => browser.invoke(id, params, ms), robots: (url) => robotsForNavigation(robots, config, url) });
    }
    try {
      const result = await browser.invoke(call.capability, call.params, timeout);
      learnTypedSecret(result, (s) => redactor.addSecret(s));
      sessions.observe(call.capability, result);
      return result;
    } catch (err) {
      if (err instanceof WebcapError && (err.code === 'sidecar_crashed' || err.code === 'browser_crashed')) sessions.forgetAll();
      throw err;
    }
  });

  const robots = new RobotsCache(config, { shared: store.values('robots') });
  // With a shared store the host keeps the site profiles' polite gap for the fleet too (see budget/site-rates.ts).
  const politeness = new PolitenessGate(config, undefined, undefined, store.kind === 'redis' ? siteRates() : undefined);
  const admission = store.admission(politeness);
  // Compiled once, while the chain file opens (not inside createHost), so a
  // cold start overlaps it with the sidecar's own start-up.
  const run = chainReady.then((chain) => compose([
    auditPolicy(chain, redactor),
    enabledPolicy(config),
    validatePolicy(compileValidators(manifests)),
    sessionScopePolicy(),  // one MCP client among several: only its own sessions
    allowlistPolicy(config),
    ssrfPolicy(config),   // before robots: see the header comment
    writeAheadPolicy(chain, redactor), // the intent is on disk before anything below acts
    warmUpPolicy(browser), // not a decision: Chromium starts while robots/consent run
    robotsPolicy(robots, config, politeness),
    budgetPolicy(config, { politeness, admission }),
    consentPolicy(gate, config.consent),
  ], terminal));
  run.catch(() => undefined);
  const shots: ShotDeps = { mode: config.report.screenshots, invoke: (id, p, ms) => sidecar.invoke(id, p, ms), append, hasSession: (s) => s !== undefined && sessions.has(s) };

  return {
    redactor,
    log,
    heal: {
      chainPath: config.chain.path,
      probe: async (fingerprint, session) => await sidecar.invoke('webcap.heal_probe', { fingerprint, session: session ?? sessions.current }, 10_000) as Awaited<ReturnType<HealDeps['probe']>>,
      record: async (entry) => { await append(redactor.redact(entry)); },
    },
    async run(call) {
      // A scoped caller (one MCP client among several) never defaults to another's session.
      if (!call.scope) call.session ??= sessions.current;
      // The first browser call starts the sidecar process now (no browser yet),
      // so its start-up (Node + Playwright, ~0.4 s) overlaps the policy checks.
      if (call.manifest.provider === 'sidecar') {
        browser.prestart();
        if (browser.name !== 'sidecar') call.via = { ...call.via, provider: browser.name };
      }
      try {
        return await withStepShot(shots, call, async () => (await run)(call));
      } finally {
        await flushBlocked(call.planId);
      }
    },
    warm: () => browser.prelaunch(),
    // Not a call: a read of the page the caller just acted on, part of that action's answer (its chain entry is the action's).
    pageView: async (session, mode) => (browser.name === 'sidecar' && sessions.has(session)
      ? (await sidecar.invoke('webcap.page_view', { session, mode }, config.capabilities.browser.default_timeout_ms)) as PageView
      : undefined),
    currentSession: () => sessions.current,
    openSessions: () => sessions.list(),
    async recordUnknown(id, planId, error) {
      await append({ kind: 'call', capability: id, plan_id: planId ?? null, params: null, error: { code: error.code, message: error.message }, decision: { decision: 'denied', policy: 'registry', reason: error.message } });
    },
    async closeSession(session, planId) {
      if (!sessions.has(session)) return;
      const started = Date.now();
      // Write-ahead for the plan's own clean-up too; a chain that cannot take it does not keep the session open.
      const via = browser.name !== 'sidecar' ? { via: { provider: browser.name } } : {};
      const intent = await append({ kind: 'intent', capability: 'web.close', plan_id: planId, session, params: { session }, ...via }).catch(() => undefined);
      const result = await closeWithProfile(profiles, session, (p) => browser.invoke('web.close', p, 10_000), planId).catch((err: unknown) => ({ error: String(err) }));
      sessions.closed(session);
      await append({ kind: 'call', capability: 'web.close', plan_id: planId, session, params: { session }, result, duration_ms: Date.now() - started, decision: { decision: 'allowed', policy: 'plan_cleanup', reason: 'sessions a plan opened are closed when it ends' }, ...via, ...(intent ? { intent_seq: intent.seq } : {}) }, after);
    },
    async close() {
      // Profile sessions still open are closed one by one so their storage can be saved (with consent).
      for (const session of profiles.sessions()) {
        await closeWithProfile(profiles, session, (p) => browser.invoke('web.close', p, 10_000)).catch(() => undefined);
      }
      await browser.close();
      await releaseStore();
      await (await chainReady.catch(() => undefined))?.close();
      log.flush?.();
    },
  };
}
