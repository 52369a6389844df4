// createHost(): the library entry. Every call, from a plan, the CLI or MCP,
// goes through the one policy chain built in governance.ts and ends either in
// a host-side capability or in the sidecar.
import { toWebcapError, WebcapError } from '../manifests/errors.js';
import { loadManifests, type Manifest } from '../manifests/load.js';
import type { Asker, ConsentQuestion } from './consent/asker.js';
import { loadConfig, type ConfigInput } from './config/load.js';
import type { WebcapConfig } from './config/types.js';
import { discover, writePlan, type Candidate, type WrittenPlan } from './discovery/index.js';
import { buildGovernance, DEFAULT_OWNER, type Governance, type PageView } from './governance.js';
import { newPlanId, runPlanWith, type PlanOptions } from './rtfs/plan-runner.js';
import { metrics } from './metrics/metrics.js';
import { shownCapabilityId } from './redact/capability-id.js';
import { redactedError } from './redact/errors.js';
import type { CallContext, CallResult, Principal } from './policies/types.js';
import type { UrlElicitor } from './secrets/missing.js';
import { startConsole, type ConsoleOptions, type ConsoleServer } from './console/server.js';
import type { CapabilityId, ParamsOf, ResultOf } from '../manifests/types.generated.js';

export interface HostOptions {
  config?: ConfigInput;
  /** Answers consent questions; without it: a TTY prompt, else [consent] non_interactive. */
  ask?: Asker;
  /** Approve every consent question (the CLI's --yes). */
  yes?: boolean;
  /** Labels for chain entries outside a call's own (consent, events, blocked requests), by session: MCP over HTTP names the MCP session. */
  entryVia?: (session: string | undefined) => Record<string, string> | undefined;
  /** Remembered approvals are kept per this scope (the daemon: per command), so one caller's "yes" never answers another's question. */
  approvalScope?: (q: ConsentQuestion) => string | undefined;
  /** Sends the person behind the calling client to a page (MCP URL-mode elicitation): how a missing secret is asked for. */
  elicitUrl?: UrlElicitor;
}

export interface CallOptions {
  planId?: string;
  /** Recorded on the call's chain entry, e.g. {mcp_session: id} for MCP over HTTP. */
  via?: Record<string, string>;
  /** The authenticated client making the call ([[mcp.clients]]): recorded, its allowlist and budgets applied. */
  principal?: Principal;
  /** Who asked, shown with consent questions in the console ("CLI", "MCP client NAME"). */
  caller?: string;
  /** The plan step, plan:LINE:COL (set by the plan runner). */
  step?: string;
  /** Abort to interrupt the call (the caller went away). */
  signal?: AbortSignal;
}

/** A capability's params and options as call() takes them (params may be left out when none is required). */
export type CallArgs<K extends CapabilityId> = {} extends ParamsOf<K>
  ? [params?: ParamsOf<K>, opts?: CallOptions]
  : [params: ParamsOf<K>, opts?: CallOptions];

/**
 * call() is typed from the manifests: a known id takes its params and answers
 * its result (manifests/types.generated.ts); an id known only at run time (a
 * CLI argument, an MCP tool name) takes a plain object and is checked when called.
 */
export interface CapabilityCall {
  <K extends CapabilityId>(id: K, ...args: CallArgs<K>): Promise<ResultOf<K>>;
  <I extends string>(id: I extends CapabilityId ? never : I, params?: Record<string, unknown>, opts?: CallOptions): Promise<CallResult>;
}

/**
 * One caller of a shared host: its own browser sessions, its own "current
 * session". A call without `session` reaches only this caller's latest one,
 * and a session another caller opened is never reachable, named or not.
 */
export interface HostScope {
  /** The owner every call of this scope carries to the browser. */
  readonly owner: string;
  call: CapabilityCall;
  /** This caller's open sessions. */
  sessions(): string[];
  /** Closes this caller's open sessions (governed and recorded like any web.close). */
  close(): Promise<void>;
}

export interface Host {
  readonly config: WebcapConfig;
  /**
   * A call as the host's default caller: plain host.call()s from one program
   * share one current session, apart from every plan, MCP client and scope.
   * Code that shares this host with other concurrent callers takes its own
   * caller with scope(): then no call of one can land in another's page.
   */
  call: CapabilityCall;
  /** A new caller of this host, with sessions of its own (see HostScope). */
  scope(label?: string): HostScope;
  /** Runs a plan as a caller of its own: its calls reach only the sessions it opened, closed when it ends. */
  runPlan(source: string, opts?: PlanOptions): Promise<unknown>;
  capabilities(): Manifest[];
  /** This process's Prometheus metrics in the text exposition format (what /metrics serves). */
  metrics(): Promise<string>;
  /** Names of the browser sessions open now (the CLI daemon's status), or of one owner's. */
  sessions(owner?: string): string[];
  /** Site profiles whose tasks answer a need such as "restaurant.search", best first. */
  discover(need: string, inputs?: Record<string, unknown>): Candidate[];
  /** An RTFS plan for the need, written from the best usable candidate's task. */
  plan(need: string, inputs?: Record<string, unknown>): WrittenPlan;
  /** Start the sidecar and launch the browser now, before the first call (unused, it closes after 30 s). */
  warm(): void;
  /** A signal stopped the command: an `interrupted` event in the chain (host/cli/interrupt.ts). */
  interrupted(signal: string, command: string): Promise<void>;
  /**
   * Serve the console (host/console): pending questions with evidence, sessions, the chain, Stop.
   * Loopback by default; the URL carries the token: print it once, never log it.
   */
  console(options?: ConsoleOptions): Promise<ConsoleServer>;
  /** What changed on a session's page since the agent's last view (MCP action answers); not a call, so no chain entry of its own. */
  pageView(session: string, mode: 'diff' | 'snapshot'): Promise<PageView | undefined>;
  close(): Promise<void>;
}

export function createHost(options: HostOptions = {}): Host {
  const config = loadConfig(options.config);
  const manifests = loadManifests();
  const byId = new Map(manifests.map((m) => [m.id, m]));
  const gov: Governance = buildGovernance(config, manifests, options);
  metrics.setEnabled(config.metrics.enabled);
  metrics.knowCapabilities(byId.keys());
  let closed = false;
  let scopes = 0;
  const consoles = new Set<ConsoleServer>();

  const callAs = async (owner: string, id: string, params: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallResult> => {
      if (closed) throw new WebcapError('internal', 'this host is closed');
      const manifest = byId.get(id);
      if (!manifest) {
        // The id is caller input that may hold a secret (web.open?token=…): only its redacted, well-formed form goes anywhere.
        const shown = gov.redactor.redactString(shownCapabilityId(id));
        const near = manifests.filter((m) => m.id.split('.').pop() === shown.split('.').pop()).map((m) => m.id);
        const error = new WebcapError('unknown_capability', `no capability "${shown}"${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; see \`webcap manifests\``, { id: shown });
        metrics.call(id, error.code, 0, 'registry');
        await gov.recordUnknown(shown, opts.planId, error);
        throw error;
      }
      if (params === null || typeof params !== 'object' || Array.isArray(params)) {
        throw new WebcapError('invalid_params', `${id}: params must be a JSON object`, { field: '(params)' });
      }
      const call: CallContext = {
        capability: id, manifest, params, planId: opts.planId, owner,
        session: params.session as string | undefined,
        decisions: [], startedAt: Date.now(),
        ...(opts.via ? { via: opts.via } : {}),
        ...(opts.principal ? { principal: opts.principal } : {}),
        ...(opts.caller ? { caller: opts.caller } : {}),
        ...(opts.step ? { step: opts.step } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      };
      const started = performance.now();
      try {
        const result = await gov.run(call);
        metrics.call(id, undefined, (performance.now() - started) / 1000);
        return result;
      } catch (err) {
        if (metrics.enabled) metrics.call(id, err instanceof WebcapError ? err.code : 'internal', (performance.now() - started) / 1000, refusedBy(call));
        throw redactedError(err, gov.redactor); // what the caller sees (and the CLI prints) is redacted like the chain
      }
  };

  // The registry checks the id and ajv the params against its manifest before anything runs; the result is what the manifest promises.
  const typedCall = (owner: string) => ((id: string, params?: Record<string, unknown>, opts?: CallOptions) => callAs(owner, id, params, opts)) as CapabilityCall;

  const scope = (label = 'scope'): HostScope => {
    const owner = `${label}-${++scopes}`;
    return {
      owner,
      call: typedCall(owner),
      sessions: () => gov.openSessions(owner),
      async close() {
        for (const session of gov.openSessions(owner).reverse()) await callAs(owner, 'web.close', { session }).catch(() => undefined);
      },
    };
  };

  const host: Host = {
    config,
    call: typedCall(DEFAULT_OWNER),
    scope,
    async runPlan(source, opts = {}) {
      const planId = opts.planId ?? newPlanId();
      const { owner } = scope('plan');
      const heal = { ...gov.heal, probe: (f: Parameters<typeof gov.heal.probe>[0], s: string | undefined) => gov.heal.probe(f, s, owner) };
      try {
        const result = await runPlanWith({
          call: (id, params, o) => callAs(owner, id, params, o),
          closeSession: (s, id) => gov.closeSession(s, id, owner),
          limits: config.plans, redact: (t) => gov.redactor.redactString(t), heal,
        }, source, { ...opts, planId });
        await gov.recordPlanEnd(planId, { ok: true, result }).catch(() => undefined);
        return result;
      } catch (err) {
        const error = redactedError(err, gov.redactor);
        await gov.recordPlanEnd(planId, { ok: false, error: toWebcapError(error) }).catch(() => undefined);
        throw error;
      } finally {
        gov.ownerDone(owner);
      }
    },
    capabilities: () => manifests,
    sessions: (owner) => gov.openSessions(owner),
    metrics: () => metrics.text(),
    discover: (need, inputs = {}) => discover(need, inputs, config),
    plan: (need, inputs = {}) => writePlan(need, inputs, config),
    warm: () => { if (!closed) gov.warm(); },
    // heal.record is governance's plain (redacting) append.
    interrupted: (signal, command) => gov.heal.record({ kind: 'event', session: null, result: { event: 'interrupted', signal, command } }),
    async console(consoleOptions = {}) {
      if (closed) throw new WebcapError('internal', 'this host is closed');
      const server = await startConsole(gov.console, { listen: config.console.listen, ...consoleOptions });
      // No page a governed browser loads may reach it, whatever [network] allow_private says.
      gov.refuse(server.address);
      consoles.add(server);
      const close = server.close;
      return { ...server, close: () => { consoles.delete(server); return close(); } };
    },
    pageView: async (session, mode) => (closed ? undefined : gov.pageView(session, mode)),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consoles].map((c) => c.close()));
      await gov.close();
    },
  };
  return host;
}

/** The policy that refused the call, if one did (its last "denied" decision). */
function refusedBy(call: CallContext): string | undefined {
  for (let i = call.decisions.length - 1; i >= 0; i--) if (call.decisions[i].decision === 'denied') return call.decisions[i].policy;
  return undefined;
}
