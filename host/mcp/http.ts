// `webcap mcp --http HOST:PORT`: MCP over the SDK's Streamable HTTP transport
// at /mcp. One host serves every MCP session (one browser, one budget, one
// causal chain); each session (Mcp-Session-Id) gets its own server, its own
// browser sessions and its own consent route (host/mcp/front.ts). A session
// ends on DELETE, when its transport closes, or after idle_timeout_s without a
// request; its browser sessions close with it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SessionFront } from './front.js';
import { allowedHostnames, assertBindable, DEFAULT_TOKEN_ENV, originCheck, parseListen, staticTokenVerifier, tokenFrom } from './http-guard.js';
import { createMcpHub, type McpHub, type McpOptions } from './server.js';

export interface McpHttpOptions extends McpOptions {
  /** HOST:PORT; port 0 picks a free one. */
  listen: string;
  /** Environment variable holding the bearer token (default WEBCAP_MCP_TOKEN). */
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

interface Live { front: SessionFront; transport: StreamableHTTPServerTransport; lastUsed: number; busy: number }
type Req = IncomingMessage & { body?: unknown };

export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const listen = parseListen(options.listen);
  const tokenEnv = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const token = tokenFrom(options.env ?? process.env, tokenEnv);
  assertBindable(listen, token, tokenEnv);

  const hub = createMcpHub(options);
  await hub.ready;
  const live = new Map<string, Live>();
  const idleMs = hub.host.config.capabilities.browser.idle_timeout_s * 1000;

  const end = async (id: string) => {
    const s = live.get(id);
    if (!s) return;
    live.delete(id);
    await s.front.close();
    await s.transport.close().catch(() => undefined);
  };

  const hosts = allowedHostnames(listen.host);
  // The SDK's app: JSON body parsing, and the Host check when given names.
  const app = createMcpExpressApp({ host: listen.host, ...(hosts ? { allowedHosts: hosts } : {}) });
  app.use(originCheck(hosts));
  if (token) app.use('/mcp', requireBearerAuth({ verifier: staticTokenVerifier(token) }));

  const handle = async (req: Req, res: ServerResponse) => {
    const id = header(req, 'mcp-session-id');
    let session = id ? live.get(id) : undefined;
    const fresh = !session;
    if (!session) {
      if (id || req.method !== 'POST' || !isInitializeRequest(req.body)) {
        return refuse(res, id ? 404 : 400, id ? `no MCP session ${id} (it ended or never existed): initialize a new one` : 'no Mcp-Session-Id: send initialize first');
      }
      session = await opened(hub, live);
    }
    session.lastUsed = Date.now();
    const counted = req.method === 'POST'; // a GET stream stays open for the session's life: not a sign of work
    if (counted) session.busy += 1;
    res.once('close', () => { if (counted) session.busy -= 1; session.lastUsed = Date.now(); });
    await session.transport.handleRequest(req, res, req.body);
    // An initialize the transport rejected named no session: nothing will ever reach this server again.
    if (fresh && !session.transport.sessionId) await session.front.close(false);
  };
  const guarded = (req: Req, res: ServerResponse) => { handle(req, res).catch((err: unknown) => { if (!res.headersSent) refuse(res, 500, err instanceof Error ? err.message : String(err)); }); };
  app.post('/mcp', guarded);
  app.get('/mcp', guarded);
  app.delete('/mcp', guarded);

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of live) if (s.busy === 0 && now - s.lastUsed > idleMs) void end(id);
  }, Math.min(idleMs / 4, 30_000));
  sweep.unref();

  const server: HttpServer = await new Promise((resolve, reject) => {
    const s = app.listen(listen.port, listen.host, (err?: Error) => (err ? reject(err) : resolve(s)));
    s.once('error', reject);
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

  async function opened(h: McpHub, sessions: Map<string, Live>): Promise<Live> {
    // `via` is filled in once the transport has named the session, before any tool call can run.
    const via: Record<string, string> = {};
    const front = h.open(via);
    const entry: Live = { front, transport: undefined as unknown as StreamableHTTPServerTransport, lastUsed: Date.now(), busy: 0 };
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

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
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
