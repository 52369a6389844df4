// The rules in front of `webcap mcp --http`: where it may listen, the bearer
// token's presence, and the Host/Origin checks against DNS rebinding. Pure functions and
// small middleware, so they are tested without a server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { WebcapError } from '../../manifests/errors.js';

export const DEFAULT_TOKEN_ENV = 'WEBCAP_MCP_TOKEN';
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export interface Listen { host: string; port: number }

/** "127.0.0.1:8931", "[::1]:0", "localhost:8931". */
export function parseListen(text: string): Listen {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new WebcapError('invalid_params', `--http wants HOST:PORT (e.g. 127.0.0.1:8931), not "${text}"`, { field: '--http' });
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** The token, or undefined when the variable is unset or empty. */
export function tokenFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** Anyone on the network could drive the browser of a non-loopback server without a token: refuse to start. */
export function assertBindable(listen: Listen, token: string | undefined, tokenEnv: string): void {
  if (!token && !isLoopback(listen.host)) {
    throw new WebcapError('invalid_params', `refusing to serve MCP on ${listen.host} (not loopback) without a token: set ${tokenEnv}`, { field: '--http', token_env: tokenEnv });
  }
}

/** Host names a request may carry (port-agnostic); undefined: any (a wildcard bind, guarded by the token). */
export function allowedHostnames(host: string): string[] | undefined {
  if (isLoopback(host)) return LOOPBACK_NAMES;
  if (isWildcard(host)) return undefined;
  return [isIP(host) === 6 ? `[${host}]` : host];
}

/**
 * A browser page on another site may POST to a loopback server (its Origin
 * gives it away); a request carrying an Origin must come from an allowed host,
 * or, on a wildcard bind, from the host it addressed.
 */
export function originCheck(allowed: string[] | undefined) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const origin = req.headers.origin;
    if (!origin) return next();
    let hostname: string | undefined;
    try { hostname = new URL(origin).hostname; } catch { hostname = undefined; }
    const hostHeader = req.headers.host ? safeHostname(req.headers.host) : undefined;
    const ok = hostname !== undefined && (allowed ? allowed.includes(hostname) : hostname === hostHeader);
    if (ok) return next();
    res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Origin not allowed: ${origin}` }, id: null }));
  };
}

function safeHostname(host: string): string | undefined {
  try { return new URL(`http://${host}`).hostname; } catch { return undefined; }
}
