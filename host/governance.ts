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
import { CausalChain } from './chain/chain.js';
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
import { ssrfPolicy } from './policies/ssrf.js';
import type { CallContext, CallResult } from './policies/types.js';
import { compileValidators, validatePolicy } from './policies/validate.js';
import { warmUpPolicy } from './policies/warm-up.js';
import { PolitenessGate } from './budget/politeness.js';
import { Redactor } from './redact/redactor.js';
import { redactingLogger } from './redact/logger.js';
import { RobotsCache } from './robots/robots.js';
import { hostProviders } from './providers/index.js';
import { SessionTracker } from './session-tracker.js';
import { Profiles } from './profiles/manager.js';
import { closeWithProfile, withProfiles } from './profiles/terminal.js';
import { SidecarClient } from './sidecar-client.js';
import { sidecarInit } from './sidecar-init.js';

export interface Governance {
  run(call: CallContext): Promise<CallResult>;
  currentSession(): string | undefined;
  /** Sessions open now (learned from results and the sidecar's idle-close events). */
  openSessions(): string[];
  recordUnknown(id: string, planId: string | undefined, error: WebcapError): Promise<void>;
  closeSession(session: string, planId: string): Promise<void>;
  readonly redactor: Redactor;
  readonly log: Logger;
  close(): Promise<void>;
}

export function buildGovernance(config: WebcapConfig, manifests: Manifest[], options: HostOptions): Governance {
  const redactor = new Redactor(config.redaction);
  const log = redactingLogger(config.logging, redactor);
  const chainReady = CausalChain.open(config.chain.path);
  chainReady.catch(() => undefined);
  const append = async (entry: Parameters<CausalChain['append']>[0]) => (await chainReady).append(entry);
  const sessions = new SessionTracker();
  const blocked = new Map<string, { count: number; hosts: Set<string>; examples: string[] }>();

  const gate = new ConsentGate({
    asker: chooseAsker({ ask: options.ask, yes: options.yes, nonInteractive: config.consent.non_interactive, isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY) }),
    config: config.consent,
    record: async (r) => { await append({ kind: 'consent', capability: r.capability, session: r.session ?? null, params: redactor.redact({ origin: r.origin, selector: r.selector, reason: r.reason }), decision: { decision: r.approved ? 'approved' : 'denied', policy: 'consent', reason: `${r.reason} (${r.source})` } }); },
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
      void append({ kind: 'event', session: e.session ?? null, result: { event: e.kind, ...detail } }).catch(() => undefined);
      if (e.session && e.kind === 'session_idle_closed') void profiles.closed(e.session, state as never).catch((err: unknown) => log.warn({ err: String(err) }, 'profile save after idle close failed'));
    },
    async onSensitive(a) {
      if (a.secret) redactor.addSecret(a.secret);
      return gate.confirmSensitive(a);
    },
  }, log);

  const flushBlocked = async (planId: string | undefined) => {
    for (const [session, s] of blocked) {
      blocked.delete(session);
      await append({ kind: 'network_blocked', plan_id: planId ?? null, session, result: { count: s.count, hosts: [...s.hosts], examples: s.examples } });
    }
  };

  const terminal = withProfiles(profiles, async (call: CallContext): Promise<CallResult> => {
    const timeout = (call.params.timeout as number | undefined) ?? config.capabilities.browser.default_timeout_ms;
    if (call.manifest.provider === 'host') {
      const provider = hostProviders[call.capability];
      if (!provider) throw new WebcapError('internal', `no host provider for ${call.capability}`);
      return provider(call.params, { config, log, redactor, gate, call, sidecar: (id, params, ms) => sidecar.invoke(id, params, ms) });
    }
    try {
      const result = await sidecar.invoke(call.capability, call.params, timeout);
      sessions.observe(call.capability, result);
      return result;
    } catch (err) {
      if (err instanceof WebcapError && (err.code === 'sidecar_crashed' || err.code === 'browser_crashed')) sessions.forgetAll();
      throw err;
    }
  });

  const robots = new RobotsCache(config);
  const politeness = new PolitenessGate(config);
  // Compiled once, while the chain file opens (not inside createHost), so a
  // cold start overlaps it with the sidecar's own start-up.
  const run = chainReady.then((chain) => compose([
    auditPolicy(chain, redactor),
    enabledPolicy(config),
    validatePolicy(compileValidators(manifests)),
    allowlistPolicy(config),
    ssrfPolicy(config),   // before robots: see the header comment
    warmUpPolicy(sidecar), // not a decision: Chromium starts while robots/consent run
    robotsPolicy(robots, config, politeness),
    budgetPolicy(config, { politeness }),
    consentPolicy(gate, config.consent),
  ], terminal));
  run.catch(() => undefined);

  return {
    redactor,
    log,
    async run(call) {
      call.session ??= sessions.current;
      // The first browser call starts the sidecar process now (no browser yet),
      // so its start-up (Node + Playwright, ~0.4 s) overlaps the policy checks.
      if (call.manifest.provider === 'sidecar') sidecar.prestart();
      try {
        return await (await run)(call);
      } finally {
        await flushBlocked(call.planId);
      }
    },
    currentSession: () => sessions.current,
    openSessions: () => sessions.list(),
    async recordUnknown(id, planId, error) {
      await append({ kind: 'call', capability: id, plan_id: planId ?? null, params: null, error: { code: error.code, message: error.message }, decision: { decision: 'denied', policy: 'registry', reason: error.message } });
    },
    async closeSession(session, planId) {
      if (!sessions.has(session)) return;
      const started = Date.now();
      const result = await closeWithProfile(profiles, session, (p) => sidecar.invoke('web.close', p, 10_000), planId).catch((err: unknown) => ({ error: String(err) }));
      sessions.closed(session);
      await append({ kind: 'call', capability: 'web.close', plan_id: planId, session, params: { session }, result, duration_ms: Date.now() - started, decision: { decision: 'allowed', policy: 'plan_cleanup', reason: 'sessions a plan opened are closed when it ends' } });
    },
    async close() {
      // Profile sessions still open are closed one by one so their storage can be saved (with consent).
      for (const session of profiles.sessions()) {
        await closeWithProfile(profiles, session, (p) => sidecar.invoke('web.close', p, 10_000)).catch(() => undefined);
      }
      await sidecar.close();
      await (await chainReady.catch(() => undefined))?.close();
      log.flush?.();
    },
  };
}
