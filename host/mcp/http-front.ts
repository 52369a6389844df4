// The request pipeline in front of every HTTP server webcap runs for MCP:
// Host and Origin checks, then /healthz (no token: it carries no data), then
// the bearer token for everything else, then a bounded body parsed as JSON.
// Every refusal is a JSON-RPC error object: never an HTML page, a stack or a
// path. The body of a request without a valid token is never read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenTable } from './http-auth.js';
import { originCheck } from './http-guard.js';

/** Larger than any tool call's arguments; a bigger body is refused before it is parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

import type { Health } from '../ops/health.js';

interface FrontOptions {
  /** Host names a request may carry; undefined: any (a wildcard bind, guarded by the token). */
  hosts: string[] | undefined;
  /** Absent: no token needed (loopback without one). */
  tokens?: TokenTable;
  maxBodyBytes?: number;
  /** POST/GET/DELETE /mcp once authenticated; body parsed for POST. Absent: no /mcp here. */
  mcp?(req: IncomingMessage, res: ServerResponse, body: unknown, client: string | undefined): Promise<void>;
  health?(): Promise<Health>;
  metrics?(): Promise<{ contentType: string; text: string }>;
}

export function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) { res.destroy(); return; }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export function frontHandler(opts: FrontOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const origin = originCheck(opts.hosts);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req, opts.hosts)) return jsonRpcError(res, 403, -32000, 'Host not allowed');
    let passed = false;
    origin(req, res, () => { passed = true; });
    if (!passed) return;
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' && opts.health) {
      if (req.method !== 'GET') return jsonRpcError(res, 405, -32000, 'GET only');
      const health = await opts.health();
      res.writeHead(health.ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(health));
      return;
    }
    let client: string | undefined;
    if (opts.tokens) {
      const auth = opts.tokens.authenticate(req);
      if (!auth.ok) return jsonRpcError(res, 401, -32001, auth.reason, { 'www-authenticate': 'Bearer error="invalid_token"' });
      client = auth.client;
    }
    if (path === '/metrics' && opts.metrics) {
      if (req.method !== 'GET') return jsonRpcError(res, 405, -32000, 'GET only');
      const m = await opts.metrics();
      res.writeHead(200, { 'content-type': m.contentType }).end(m.text);
      return;
    }
    if (path !== '/mcp' || !opts.mcp) return jsonRpcError(res, 404, -32000, `nothing at ${path.slice(0, 100)}${opts.mcp ? ': MCP is at /mcp' : ''}`);
    if (req.method !== 'POST') return opts.mcp(req, res, undefined, client);
    const read = await readBody(req, limit);
    if (read.tooLarge) {
      res.once('finish', () => req.destroy());
      return jsonRpcError(res, 413, -32000, `request body over ${limit} bytes`, { connection: 'close' });
    }
    let body: unknown;
    try { body = JSON.parse(read.text); } catch { return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON'); }
    return opts.mcp(req, res, body, client);
  };
  return (req, res) => {
    handle(req, res).catch(() => jsonRpcError(res, 500, -32603, 'internal error'));
  };
}

function hostAllowed(req: IncomingMessage, hosts: string[] | undefined): boolean {
  if (!hosts) return true;
  const header = req.headers.host;
  if (!header) return false;
  try { return hosts.includes(new URL(`http://${header}`).hostname); } catch { return false; }
}

/** The body as text, or tooLarge as soon as it passes the limit (a declared Content-Length over it is not read at all). */
function readBody(req: IncomingMessage, limit: number): Promise<{ text: string; tooLarge?: false } | { tooLarge: true }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) { chunks.push(chunk); return; }
      // Stop reading, answer, then drop the connection (the caller closes it after the 413).
      req.off('data', onData);
      req.pause();
      resolve({ tooLarge: true });
    };
    req.on('data', onData);
    req.once('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8') }));
    req.once('error', reject);
  });
}
