// createHost(): the library entry. Every call, from a plan, the CLI or MCP,
// goes through the one policy chain built in governance.ts and ends either in
// a host-side capability or in the sidecar.
import { WebcapError } from '../manifests/errors.js';
import { loadManifests, type Manifest } from '../manifests/load.js';
import type { Asker } from './consent/asker.js';
import { loadConfig, type ConfigInput } from './config/load.js';
import type { WebcapConfig } from './config/types.js';
import { discover, writePlan, type Candidate, type WrittenPlan } from './discovery/index.js';
import { buildGovernance, type Governance, type PageView } from './governance.js';
import { runPlanWith, type PlanOptions } from './plan-runner.js';
import type { SessionOwner } from './policies/session-scope.js';
import { shownCapabilityId } from './redact/capability-id.js';
import { redactedError } from './redact/errors.js';
import type { CallContext, CallResult } from './policies/types.js';

export interface HostOptions {
  config?: ConfigInput;
  /** Answers consent questions; without it: a TTY prompt, else [consent] non_interactive. */
  ask?: Asker;
  /** Approve every consent question (the CLI's --yes). */
  yes?: boolean;
  /** Labels for chain entries outside a call's own (consent, events, blocked requests), by session: MCP over HTTP names the MCP session. */
  entryVia?: (session: string | undefined) => Record<string, string> | undefined;
}

export interface CallOptions {
  planId?: string;
  /** Recorded on the call's chain entry, e.g. {mcp_session: id} for MCP over HTTP. */
  via?: Record<string, string>;
  /** Restricts the call to these sessions (policies/session-scope.ts). */
  scope?: SessionOwner;
}

export interface Host {
  readonly config: WebcapConfig;
  call(id: string, params?: Record<string, unknown>, opts?: CallOptions): Promise<CallResult>;
  runPlan(source: string, opts?: PlanOptions): Promise<unknown>;
  capabilities(): Manifest[];
  /** Names of the browser sessions open now (the CLI daemon's status). */
  sessions(): string[];
  /** Site profiles whose tasks answer a need such as "restaurant.search", best first (seed 001 §9). */
  discover(need: string, inputs?: Record<string, unknown>): Candidate[];
  /** An RTFS plan for the need, written from the best usable candidate's task. */
  plan(need: string, inputs?: Record<string, unknown>): WrittenPlan;
  /** Start the sidecar and launch the browser now, before the first call (unused, it closes after 30 s). */
  warm(): void;
  /** What changed on a session's page since the agent's last view (MCP action answers); not a call, so no chain entry of its own. */
  pageView(session: string, mode: 'diff' | 'snapshot'): Promise<PageView | undefined>;
  close(): Promise<void>;
}

export function createHost(options: HostOptions = {}): Host {
  const config = loadConfig(options.config);
  const manifests = loadManifests();
  const byId = new Map(manifests.map((m) => [m.id, m]));
  const gov: Governance = buildGovernance(config, manifests, options);
  let closed = false;

  const host: Host = {
    config,
    async call(id, params = {}, opts = {}) {
      if (closed) throw new WebcapError('internal', 'this host is closed');
      const manifest = byId.get(id);
      if (!manifest) {
        // The id is caller input that may hold a secret (web.open?token=…): only its redacted, well-formed form goes anywhere.
        const shown = gov.redactor.redactString(shownCapabilityId(id));
        const near = manifests.filter((m) => m.id.split('.').pop() === shown.split('.').pop()).map((m) => m.id);
        const error = new WebcapError('unknown_capability', `no capability "${shown}"${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; see \`webcap manifests\``, { id: shown });
        await gov.recordUnknown(shown, opts.planId, error);
        throw error;
      }
      if (params === null || typeof params !== 'object' || Array.isArray(params)) {
        throw new WebcapError('invalid_params', `${id}: params must be a JSON object`, { field: '(params)' });
      }
      const call: CallContext = {
        capability: id, manifest, params, planId: opts.planId,
        session: (params.session as string | undefined) ?? (opts.scope ? undefined : gov.currentSession()),
        decisions: [], startedAt: Date.now(),
        ...(opts.via ? { via: opts.via } : {}),
        ...(opts.scope ? { scope: opts.scope } : {}),
      };
      try {
        return await gov.run(call);
      } catch (err) {
        throw redactedError(err, gov.redactor); // what the caller sees (and the CLI prints) is redacted like the chain
      }
    },
    runPlan: (source, opts) => runPlanWith({ call: (id, params, o) => host.call(id, params, o), closeSession: (s, planId) => gov.closeSession(s, planId), limits: config.plans, redact: (t) => gov.redactor.redactString(t), heal: gov.heal }, source, opts)
      .catch((err: unknown) => { throw redactedError(err, gov.redactor); }),
    capabilities: () => manifests,
    sessions: () => gov.openSessions(),
    discover: (need, inputs = {}) => discover(need, inputs, config),
    plan: (need, inputs = {}) => writePlan(need, inputs, config),
    warm: () => { if (!closed) gov.warm(); },
    pageView: async (session, mode) => (closed ? undefined : gov.pageView(session, mode)),
    async close() {
      if (closed) return;
      closed = true;
      await gov.close();
    },
  };
  return host;
}
