// The host behind MCP. Every tool call is host.call(), so MCP clients get the
// same governance and causal chain as plans and the CLI; consent questions go
// back to the client's user through elicitation.
//
// createMcpHub(): one host (one browser, one budget, one chain) behind any
// number of MCP sessions (HTTP); createMcpServer(): the hub with its one
// session, for stdio or a program that embeds the server.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Manifest } from '../../manifests/load.js';
import { nobodyAsker, type Asker } from '../consent/asker.js';
import type { ConfigInput } from '../config/load.js';
import type { WebcapConfig } from '../config/types.js';
import { createHost, type Host } from '../host.js';
import { enabledPolicy } from '../policies/enabled.js';
import type { Principal } from '../policies/types.js';
import { ConsentRouter } from './consent-router.js';
import { sessionFront, type SessionFront } from './front.js';

export interface McpOptions {
  config?: ConfigInput;
  /** One `browser` tool with action dispatch instead of one tool per capability. */
  composite?: boolean;
  /** Approve every consent question (the CLI's --yes). */
  yes?: boolean;
  /** Environment variable holding the console's token (needed for a non-loopback [console] listen). */
  consoleTokenEnv?: string;
}

export interface McpHub {
  host: Host;
  /** Resolves once the tool list is built (rejects if the manifests cannot be offered). */
  ready: Promise<void>;
  /** A new MCP session; `via` is recorded on each of its chain entries (e.g. {mcp_session: id}); `principal`: the client it belongs to. */
  open(via?: Record<string, string>, principal?: Principal): SessionFront;
  /** Ends every MCP session (closing their browser sessions) and the host. */
  close(): Promise<void>;
}

export function createMcpHub(options: McpOptions = {}): McpHub {
  // The fallback reads the config the host loaded, so both agree on non_interactive.
  let fallback: Asker = async () => ({ approved: false });
  const router = new ConsentRouter(() => fallback);
  const host = createHost({ config: options.config, ask: router.ask, yes: options.yes, entryVia: router.viaFor, elicitUrl: router.elicitUrl });
  fallback = nobodyAsker(host.config.consent.non_interactive);
  const manifests = offered(host.capabilities(), host.config);
  const ready = manifests.then(() => undefined);
  ready.catch(() => undefined); // reported to whoever awaits `ready`; never an unhandled rejection
  const fronts = new Set<SessionFront>();

  const shared = {
    host, manifests, router, fallback: () => fallback,
    composite: options.composite ?? false,
    dynamicTools: host.config.mcp.dynamic_tools,
    toolList: host.config.mcp.tool_list,
    afterAction: host.config.mcp.after_action,
  };

  let closing: Promise<void> | undefined;
  return {
    host,
    ready,
    open(via, principal) {
      const front = sessionFront(shared, via, principal);
      fronts.add(front);
      const close = front.close;
      front.close = (closeSessions) => close(closeSessions).finally(() => fronts.delete(front));
      return front;
    },
    close: () => (closing ??= (async () => {
      // The host's close ends the browser and every session in it at once.
      await Promise.all([...fronts].map((f) => f.close(false)));
      await host.close();
    })()),
  };
}

export interface WebcapMcp {
  server: Server;
  host: Host;
  /** Resolves once the tool list is built (rejects if the manifests cannot be offered). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The MCP server factory a program embeds: connect `server` to any transport (stdio, in-memory, …). */
export function createMcpServer(options: McpOptions = {}): WebcapMcp {
  const hub = createMcpHub(options);
  const front = hub.open();
  return { server: front.server, host: hub.host, ready: hub.ready, close: () => hub.close() };
}

/** A capability the config switched off is not offered at all (the enabled policy is the one rule for that). */
async function offered(manifests: Manifest[], config: WebcapConfig): Promise<Manifest[]> {
  const policy = enabledPolicy(config);
  const on = await Promise.all(manifests.map((m) => policy({ capability: m.id, manifest: m, params: {}, decisions: [], startedAt: 0 }, async () => ({})).then(() => true, () => false)));
  return manifests.filter((_, i) => on[i]);
}
