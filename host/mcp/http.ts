// `webcap mcp --http HOST:PORT`: MCP over the SDK's Streamable HTTP transport
// at /mcp. One host serves every MCP session (one browser, one budget, one
// causal chain); each session (Mcp-Session-Id) gets its own server, its own
// browser sessions and its own consent route (host/mcp/front.ts). A session
// ends on DELETE, when its transport closes, or after idle_timeout_s without a
// call (host/mcp/http-use.ts says what counts); its browser sessions close with it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../config/load.js';
import { metrics } from '../metrics/metrics.js';
import { health } from '../ops/health.js';
import type { Principal } from '../policies/types.js';
import type { SessionFront } from './front.js';
import { callersFrom } from './http-clients.js';
import { frontHandler, jsonRpcError } from './http-front.js';
import { allowedHostnames, assertBindable, parseListen } from './http-guard.js';
import { isCallersWork, SessionUse } from './http-use.js';
import { createMcpHub, type McpHub, type McpOptions } from './server.js';

export interface McpHttpOptions extends McpOptions {
  /** HOST:PORT; port 0 picks a free one. */
  listen: string;
  /** Environment variable holding the bearer token (default WEBCAP_MCP_TOKEN); not with [[mcp.clients]]. */
  tokenEnv?: string;
  env?: NodeJS.ProcessEnv;
}

export interface McpHttpServer {
  /** http://HOST:PORT/mcp */
  url: string;
  hub: McpHub;
  /** Open MCP session ids. */
  sessions(): string[];
  close(): Promise<void>;
}

interface Live { front: SessionFront; transport: StreamableHTTPServerTransport; use: SessionUse; client: string | undefined }

export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const listen = parseListen(options.listen);
  const callers = callersFrom(loadConfig(options.config).mcp.clients, options.tokenEnv, options.env ?? process.env);
  assertBindable(listen, callers.tokens ? 'set' : undefined, callers.tokenEnv);

  const hub = createMcpHub(options);
  await hub.ready;
  const live = new Map<string, Live>();
  const idleMs = hub.host.config.capabilities.browser.idle_timeout_s * 1000;

  const end = async (id: string) => {
    const s = live.get(id);
    if (!s) return;
    live.delete(id);
    // The transport first: the client's listening stream ends now (it sees the session go), and a slow or
    // failing close of its browser sessions cannot keep it open.
    await s.transport.close().catch(() => undefined);
    await s.front.close().catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: unknown, client: string | undefined) => {
    const id = header(req, 'mcp-session-id');
    let session = id ? live.get(id) : undefined;
    // Another client's MCP session is answered exactly like one that does not exist.
    if (session && session.client !== client) session = undefined;
    const fresh = !session;
    if (!session) {
      if (id || req.method !== 'POST' || !isInitializeRequest(body)) {
        return jsonRpcError(res, id ? 404 : 400, -32000, id ? 'no such MCP session (it ended or never existed): initialize a new one' : 'no Mcp-Session-Id: send initialize first');
      }
      session = await opened(hub, live, client, callers.principal(client));
    }
    if (isCallersWork(req.method, body)) session.use.post(res);
    await session.transport.handleRequest(req, res, body);
    // An initialize the transport rejected named no session: nothing will ever reach this server again.
    if (fresh && !session.transport.sessionId) await session.front.close(false);
  };
  const server = createServer(frontHandler({
    hosts: allowedHostnames(listen.host), tokens: callers.tokens, mcp: handle,
    health: () => health(hub.host.config),
    metrics: async () => ({ contentType: metrics.contentType, text: await metrics.text() }),
  }));

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of live) if (s.use.idleLongerThan(idleMs, s.front.calls(), now)) void end(id);
  }, Math.min(idleMs / 4, 30_000));
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address() as AddressInfo;
  const shown = listen.host.includes(':') ? `[${listen.host}]` : listen.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${port}/mcp`,
    hub,
    sessions: () => [...live.keys()],
    close: () => (closing ??= (async () => {
      clearInterval(sweep);
      // The host's close ends every browser session at once: no per-session web.close.
      const all = [...live.values()];
      live.clear();
      await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await hub.close();
    })()),
  };

  async function opened(h: McpHub, sessions: Map<string, Live>, client: string | undefined, principal: Principal | undefined): Promise<Live> {
    // `via` is filled in once the transport has named the session, before any tool call can run;
    // a principal's name is on every chain entry its calls cause.
    const via: Record<string, string> = principal ? { client: principal.name } : {};
    const front = h.open(via, principal);
    const entry: Live = { front, transport: undefined as unknown as StreamableHTTPServerTransport, use: new SessionUse(), client };
    entry.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => { via.mcp_session = sid; sessions.set(sid, entry); },
    });
    entry.transport.onclose = () => { const sid = entry.transport.sessionId; if (sid) void end(sid); else void front.close(); };
    await front.server.connect(entry.transport);
    return entry;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The CLI: serve until SIGINT/SIGTERM, printing where on stdout (one JSON line). */
export async function runMcpHttp(options: McpHttpOptions): Promise<void> {
  const server = await startMcpHttp(options);
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  if (server.hub.host.config.console.enabled) process.stderr.write(`webcap console: ${(await server.hub.host.console({ ...(options.consoleTokenEnv ? { tokenEnv: options.consoleTokenEnv } : {}) })).url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => { void server.close().finally(resolve); };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
