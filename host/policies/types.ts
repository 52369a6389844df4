// The shape every governance policy shares. A policy is `(call, next) => result`
// (Hono-style middleware): it may refuse by throwing a WebcapError, wait, or
// pass on by calling next(). compose.ts runs them in the documented order.
import type { Manifest } from '../../manifests/load.js';
import type { BudgetTables } from '../budget/buckets.js';
import type { SessionOwner } from './session-scope.js';

export interface Decision {
  policy: string;                       // 'allowlist', 'robots', 'consent', …
  decision: 'allowed' | 'denied' | 'waited';
  reason?: string;
  details?: Record<string, unknown>;
}

export interface CallContext {
  capability: string;
  manifest: Manifest;
  params: Record<string, unknown>;
  planId?: string;
  /** The session the call targets, when known (params.session or the host's current one). */
  session?: string;
  /** The URL a navigation goes to (params[manifest.url_param]); for other calls the session's page URL if the host knows it. */
  url?: URL;
  decisions: Decision[];
  startedAt: number;
  /** Recorded on the chain entry: which MCP session asked, which browser provider served. */
  via?: Record<string, string>;
  /**
   * Who makes the call: a plan run, an MCP client, a command, a library scope
   * (host.scope()); absent: the host's default caller. It travels to the
   * sidecar, which lets the call reach only sessions this owner opened.
   */
  owner?: string;
  /** The sessions `owner` may act on (set by governance from the host's session view). */
  scope?: SessionOwner;
  /** Who asked, shown with consent questions in the console: "CLI", "MCP client NAME", … (plans: the step). */
  caller?: string;
  /** The plan step that made the call, plan:LINE:COL. */
  step?: string;
  /** Aborted when the caller gives up (Ctrl-C through the daemon): the call ends as interrupted. */
  signal?: AbortSignal;
  /** The authenticated client ([[mcp.clients]]) whose call this is: its own allowlist and budgets apply too. */
  principal?: Principal;
  /** The seq of the call's intent entry (write-ahead.ts), once it is on disk; its result entry points back to it. */
  intentSeq?: number;
}

export interface Principal {
  name: string;
  domains_allowlist?: string[];
  budgets?: BudgetTables;
}

export type CallResult = Record<string, unknown>;
export type Next = () => Promise<CallResult>;
export type Policy = (call: CallContext, next: Next) => Promise<CallResult>;
