// The one place the policy chain is composed (the documented order, SSRF before robots):
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
import { metrics } from './metrics/metrics.js';
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
import { requestOrigin } from '../manifests/secrets/refs.js';
import { secretResolver } from './secrets/resolver.js';
import { learnLiterals, withSecrets } from './secrets/terminal.js';
import { SidecarClient } from './sidecar-client.js';
import { acquireStore } from './store/index.js';
import { StoreWatch } from './store/watch.js';
import { sidecarInit } from './sidecar-init.js';
import type { HealDeps } from './replay/heal.js';
import { withStepShot, type ShotDeps } from './report/step-shots.js';
import { ConsoleHub } from './console/hub.js';
import { interruptPolicy } from './policies/interrupt.js';
import { challengePolicy, waitWhileDrivenPolicy, type ChallengeFound } from './policies/handoff.js';
import type { RefuseEndpoint } from '../manifests/wire.js';

/** The caller of plain host.call()s that name no owner (host.ts). */
export const DEFAULT_OWNER = 'library';

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
  const chainReady = CausalChain.open(config.chain.path, chainOptions(config));
  chainReady.catch(() => undefined);
  const append = async (entry: Parameters<CausalChain['append']>[0], options?: AppendOptions) => (await chainReady).append(entry, options);
  // Entries about what already happened (events, blocked requests, a call's result) need no fdatasync of their own: the next durable append (an intent) carries them.
  const after = { durable: false };
  const sessions = new SessionTracker();
  const unlistSessions = metrics.sessions(() => ({ open: sessions.list().length }));
  // Entries not written by the audit policy (consent, events, blocked requests) are labelled by whoever owns the session.
  const viaFor = (session: string | undefined | null) => {
    const via = options.entryVia?.(session ?? undefined);
    return via && Object.keys(via).length ? { via } : {};
  };
  const blocked = new Map<string, { count: number; hosts: Set<string>; examples: string[] }>();
  // A store error while the sidecar asks mid-action: the sidecar refuses the effect, the call reports the store.
  const storeWatch = new StoreWatch();

  // Budgets, politeness, robots.txt, approvals (and, through storeFor, the
  // result cache and search quotas): this process's, or Redis's with [store] url.
  const { store, release: releaseStore } = acquireStore(config);
  // An outage and the recovery each become one chain event.
  store.onEvent((e) => { void append({ kind: 'event', session: null, result: { event: e.kind, ...(e.kind === 'store_unavailable' ? { reason: redactor.redactString(e.reason) } : {}) } }).catch(() => undefined); });

  // The console's hub exists with every host (cheap while nobody serves it); host.console() serves it.
  const hub: ConsoleHub = new ConsoleHub({
    evidence: (session, selector) => (browser.name === 'sidecar' ? sidecar.evidence({ session, ...(selector ? { selector } : {}) }) : Promise.resolve(undefined)),
    stopSession: (session) => sidecar.stop(session),
    record: async (session, planId, detail) => { await append({ kind: 'event', ...viaFor(session), session, plan_id: planId, result: redactor.redact(detail) }); },
    redact: (value) => redactor.redact(value),
    timeoutS: config.consent.timeout_s,
    screencast: (session, on) => (browser.name === 'sidecar' ? sidecar.screencast(session, on) : Promise.resolve(false)),
    input: (session, events) => sidecar.input(session, events),
  }, () => sessions.list());
  chainReady.then((chain) => chain.watch((entry) => hub.entry(entry)), () => undefined);

  const gate = new ConsentGate({
    approvals: store.values('approvals'),
    scope: options.approvalScope,
    asker: hub.asker(chooseAsker({ ask: options.ask, yes: options.yes, nonInteractive: config.consent.non_interactive, isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY) })),
    config: config.consent,
    // Over HTTP each MCP client approves for itself: its remembered yes is not another client's,
    // and with [[mcp.clients]] not another principal's either.
    approverOf: (session) => { const via = options.entryVia?.(session); return via && Object.keys(via).length ? JSON.stringify(via) : undefined; },
    ownerOf: (q) => options.entryVia?.(q.session)?.client,
    record: async (r) => {
      metrics.consent(r.reason, r.source === 'remembered' ? 'remembered' : r.approved ? 'approved' : 'denied');
      // Which channel answered (terminal, console, MCP elicitation, …), and whether nobody could be asked or the wait timed out.
      const details = { ...(r.channel ? { channel: r.channel } : {}), ...(r.nobody ? { nobody_asked: true } : {}), ...(r.timed_out ? { timed_out: true } : {}) };
      await append({ kind: 'consent', ...viaFor(r.session), capability: r.capability, session: r.session ?? null, params: redactor.redact({ origin: r.origin, selector: r.selector, reason: r.reason }), decision: { decision: r.approved ? 'approved' : 'denied', policy: 'consent', reason: `${r.reason} (${r.source})`, ...(Object.keys(details).length ? { details } : {}) } });
    },
  });

  const profiles = new Profiles(config, gate, async (event, session, detail, planId) => {
    await append({ kind: 'event', plan_id: planId ?? null, session, result: { event, ...detail } });
  });

  const recordEvent = async (event: string, session: string, detail: { [k: string]: unknown }) => {
    await append({ kind: 'event', ...viaFor(session), session, result: { event, ...detail } });
  };
  const onSecret = secretResolver(config, gate, (value) => redactor.addSecret(value), recordEvent);

  const sidecar = new SidecarClient(() => sidecarInit(config), {
    onBlocked(b) {
      // Summarised per call: the audit entry of the call that caused them is followed by one network_blocked entry.
      const s = blocked.get(b.session) ?? { count: 0, hosts: new Set<string>(), examples: [] };
      s.count += 1;
      s.hosts.add(`${b.host} (${b.code})`);
      if (s.examples.length < 5) s.examples.push(redactor.redact(`${b.kind} ${b.url}`) as string);
      blocked.set(b.session, s);
      // A secret stopped on its way off its origins: which one (by name) and where it was going.
      if (b.secret) void recordEvent('secret_blocked', b.session, { secret: `{{secret:${b.secret}}}`, origin: requestOrigin(b.url), kind: b.kind }).catch(() => undefined);
      log.info({ session: b.session, host: b.host, code: b.code }, 'request blocked in the browser');
    },
    onEvent(e) {
      if (e.kind === 'browser_crashed' || e.kind === 'sidecar_crashed') sessions.forgetAll();
      if (e.session && e.kind === 'session_idle_closed') sessions.closed(e.session);
      // An idle-closed profile session hands back its storage for saving (never into the chain).
      const { storage_state: state, ...detail } = (e.detail ?? {}) as Record<string, unknown>;
      void append({ kind: 'event', ...viaFor(e.session), session: e.session ?? null, result: redactor.redact({ event: e.kind, ...detail }) }, after).catch(() => undefined);
      if (e.session && e.kind === 'session_idle_closed') void profiles.closed(e.session, state as never).catch((err: unknown) => log.warn({ err: String(err) }, 'profile save after idle close failed'));
    },
    async onSensitive(a) {
      if (a.secret) learnLiterals(a.secret, (v) => redactor.addSecret(v));
      return storeWatch.watch(() => gate.confirmSensitive(a));
    },
    // Checks at the effect (sidecar/effect-gate.ts): a request an action caused, a navigation the page made.
    onEffectConsent: (q) => storeWatch.watch(() => gate.confirmRequest(q)),
    onRobotsCheck: (q) => storeWatch.watch(() => robotsForNavigation(robots, config, q.url)),
    onSecret,
    onFrame: (session, jpeg) => hub.frame(session, jpeg),
    onHandoff: (ask) => hub.handoff(ask),
  }, log);

  // What runs approved browser calls: the sidecar, or a Playwright MCP server (recorded on each chain entry).
  const browser = chooseBackend(config, log, sidecar);

  const flushBlocked = async (planId: string | undefined) => {
    for (const [session, s] of blocked) {
      blocked.delete(session);
      await append({ kind: 'network_blocked', ...viaFor(session), plan_id: planId ?? null, session, result: { count: s.count, hosts: [...s.hosts], examples: s.examples } }, after);
    }
  };

  const terminal = withSecrets(config, withProfiles(profiles, async (call: CallContext): Promise<CallResult> => {
    const timeout = (call.params.timeout as number | undefined) ?? config.capabilities.browser.default_timeout_ms;
    if (call.manifest.provider === 'host') {
      const provider = hostProviders[call.capability];
      if (!provider) throw new WebcapError('internal', `no host provider for ${call.capability}`);
      return provider(call.params, { config, log, redactor, gate, call, sidecar: (id, params, ms) => browser.invoke(id, params, ms, ownerOf(call)), robots: (url) => robotsForNavigation(robots, config, url) });
    }
    const seen = storeWatch.mark();
    try {
      let result = await browser.invoke(call.capability, call.params, timeout, ownerOf(call));
      learnTypedSecret(result, (s) => learnLiterals(s, (v) => redactor.addSecret(v)));
      // The sidecar keeps secret fields' values out of what it answers; another provider's answer (its snapshot) is cleaned here.
      if (browser.name !== 'sidecar') result = redactor.hideSecrets(result);
      sessions.observe(ownerOf(call), call.capability, result);
      return result;
    } catch (err) {
      if (err instanceof WebcapError && (err.code === 'sidecar_crashed' || err.code === 'browser_crashed')) sessions.forgetAll();
      throw storeWatch.since(seen, call) ?? err;
    }
  }));

  const ownerOf = (call: CallContext) => call.owner ?? DEFAULT_OWNER;

  const robots = new RobotsCache(config, { shared: store.values('robots') });
  // With a shared store the host keeps the site profiles' polite gap for the fleet too (see budget/site-rates.ts).
  const politeness = new PolitenessGate(config, undefined, undefined, store.kind === 'redis' ? siteRates() : undefined);
  const admission = store.admission(politeness);
  // Compiled once, while the chain file opens (not inside createHost), so a
  // cold start overlaps it with the sidecar's own start-up.
  const run = chainReady.then((chain) => compose([
    auditPolicy(chain, redactor),
    interruptPolicy(hub), // Stop and Ctrl-C: recorded by audit like any other outcome
    waitWhileDrivenPolicy(hub, config.capabilities.browser.default_timeout_ms), // the person drives the session (web.handoff)
    challengePolicy({ // a CAPTCHA, 2FA prompt or login wall after a plan step ([handoff] on_captcha)
      mode: config.handoff.on_captcha,
      hub,
      probe: async (call, session) => (browser.name === 'sidecar'
        ? ((await sidecar.invoke('webcap.challenge_probe', { session, ...(typeof call.params.url === 'string' ? { requested: call.params.url } : {}) }, 10_000, ownerOf(call))).found as ChallengeFound | null)
        : null),
      handOff: (call, session, reason) => governance.run({
        capability: 'web.handoff', manifest: handoffManifest, params: { session, reason }, planId: call.planId, session, decisions: [], startedAt: Date.now(),
        owner: call.owner, step: call.step, caller: call.caller, signal: call.signal, via: call.via, principal: call.principal,
      }),
    }),
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
  const shots: ShotDeps = { mode: config.report.screenshots, invoke: (id, p, ms, owner) => sidecar.invoke(id, p, ms, owner), append, hasSession: (s) => s !== undefined && sessions.has(s) };

  const handoffManifest = manifests.find((m) => m.id === 'web.handoff')!;
  const governance: Governance = {
    redactor,
    log,
    heal: {
      chainPath: config.chain.path,
      probe: async (fingerprint, session, owner = DEFAULT_OWNER) => await sidecar.invoke('webcap.heal_probe', { fingerprint, ...(session ? { session } : {}) }, 10_000, owner) as Awaited<ReturnType<HealDeps['probe']>>,
      record: async (entry) => { await append(redactor.redact(entry)); },
    },
    async run(call) {
      // Every call belongs to an owner, and reaches only the sessions that owner opened (the sidecar enforces it too).
      call.owner ??= DEFAULT_OWNER;
      call.scope ??= sessions.scopeOf(call.owner);
      call.session ??= sessions.currentOf(call.owner);
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
    ownerDone: (owner) => sessions.forgetOwner(owner),
    openSessions: (owner) => (owner === undefined ? sessions.list() : sessions.of(owner)),
    async recordPlanEnd(planId, outcome) {
      // What the plan returned (redacted, summarised) or its error: the report shows it, and a crash never leaves a plan without an end.
      await append(outcome.ok
        ? { kind: 'plan', plan_id: planId, session: null, result: { event: 'plan_end', ok: true, returned: redactor.summarise(outcome.result ?? null) } }
        : { kind: 'plan', plan_id: planId, session: null, result: { event: 'plan_end', ok: false }, error: { code: outcome.error.code, message: redactor.redactString(outcome.error.message) } }, after);
    },
    console: hub,
    refuse: (endpoint) => sidecar.refuse(endpoint),
    // Not a call: a read of the page the caller just acted on, part of that action's answer (its chain entry is the action's).
    pageView: async (session, mode) => {
      const owner = sessions.ownerOf(session);
      return browser.name === 'sidecar' && owner !== undefined
        ? (await sidecar.invoke('webcap.page_view', { session, mode }, config.capabilities.browser.default_timeout_ms, owner)) as PageView
        : undefined;
    },
    async recordUnknown(id, planId, error) {
      await append({ kind: 'call', capability: id, plan_id: planId ?? null, params: null, error: { code: error.code, message: error.message }, decision: { decision: 'denied', policy: 'registry', reason: error.message } });
    },
    async closeSession(session, planId, owner) {
      if (sessions.ownerOf(session) !== owner) return;
      const started = Date.now();
      // Write-ahead for the plan's own clean-up too; a chain that cannot take it does not keep the session open.
      const via = browser.name !== 'sidecar' ? { via: { provider: browser.name } } : {};
      const intent = await append({ kind: 'intent', capability: 'web.close', plan_id: planId, session, params: { session }, ...via }).catch(() => undefined);
      const result = await closeWithProfile(profiles, session, (p) => browser.invoke('web.close', p, 10_000, owner), planId).catch((err: unknown) => ({ error: String(err) }));
      sessions.closed(session);
      await append({ kind: 'call', capability: 'web.close', plan_id: planId, session, params: { session }, result, duration_ms: Date.now() - started, decision: { decision: 'allowed', policy: 'plan_cleanup', reason: 'sessions a plan opened are closed when it ends' }, ...via, ...(intent ? { intent_seq: intent.seq } : {}) }, after);
    },
    async close() {
      // Profile sessions still open are closed one by one so their storage can be saved (with consent).
      for (const session of profiles.sessions()) {
        const owner = sessions.ownerOf(session) ?? DEFAULT_OWNER;
        await closeWithProfile(profiles, session, (p) => browser.invoke('web.close', p, 10_000, owner)).catch(() => undefined);
      }
      await browser.close();
      unlistSessions();
      await releaseStore();
      await (await chainReady.catch(() => undefined))?.close();
      log.flush?.();
    },
  };
  return governance;
}
