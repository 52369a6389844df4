// The rules in front of the console: where it may listen, the token (query
// parameter `token`, traded for a cookie by the page), and the Host/Origin
// checks against DNS rebinding and cross-site requests, the same rules as the
// MCP HTTP front. Pure functions, tested without a server.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebcapError } from '../../manifests/errors.js';
import { allowedHostnames, isLoopback, parseListen, tokenFrom, type Listen } from '../mcp/http-guard.js';

interface ConsoleAccess { listen: Listen; token: string; hosts: string[] | undefined }

/** Loopback: a fresh random token. Anything else: only with a token from `tokenEnv` (anyone on the network could answer otherwise). */
export function consoleAccess(listenText: string, tokenEnv: string | undefined, env: NodeJS.ProcessEnv = process.env): ConsoleAccess {
  let listen: Listen;
  try {
    listen = parseListen(listenText);
  } catch {
    throw new WebcapError('invalid_params', `[console] listen wants HOST:PORT (e.g. 127.0.0.1:0), not "${listenText}"`, { field: 'console.listen' });
  }
  const given = tokenEnv ? tokenFrom(env, tokenEnv) : undefined;
  if (tokenEnv && !given) throw new WebcapError('invalid_params', `--token-env ${tokenEnv}: the variable is unset or empty`, { field: '--token-env' });
  if (!given && !isLoopback(listen.host)) {
    throw new WebcapError('invalid_params', `refusing to serve the console on ${listen.host} (not loopback) without --token-env NAME (a token anyone on the network must present)`, { field: 'console.listen' });
  }
  return { listen, token: given ?? randomBytes(24).toString('base64url'), hosts: allowedHostnames(listen.host) };
}

export const COOKIE = 'webcap_console';
/** The cookie a one-question link is traded for (its scope and key, never the console's token). */
const SCOPED_COOKIE = 'webcap_scope';

/**
 * One question's page, or one missing secret's: what a link sent to an MCP
 * client opens. Its key is derived from the token and unlocks that page only,
 * so the client (and the model behind it) never holds the console's token and
 * cannot answer any other question through it.
 */
export interface Scope { kind: 'q' | 's'; id: string }

function scopedKey(token: string, scope: Scope): string {
  return createHmac('sha256', token).update(`${scope.kind}:${scope.id}`).digest('base64url');
}

/** The scope a request's `key` (on the scoped page's own path) or scoped cookie unlocks; undefined when neither holds. */
export function scopeCheck(req: IncomingMessage, token: string): Scope | undefined {
  const url = new URL(req.url ?? '/', 'http://x');
  const key = url.searchParams.get('key');
  const onPath = /^\/(q|s)\/([0-9a-f]{32})(?:\/[a-z]+)?$/.exec(url.pathname);
  if (key && onPath) {
    const scope: Scope = { kind: onPath[1] as Scope['kind'], id: onPath[2] };
    return same(key, scopedKey(token, scope)) ? scope : undefined;
  }
  const cookie = /^(q|s)\.([0-9a-f]{32})\.([\w-]{1,64})$/.exec(cookieOf(req, SCOPED_COOKIE) ?? '');
  if (!cookie) return undefined;
  const scope: Scope = { kind: cookie[1] as Scope['kind'], id: cookie[2] };
  return same(cookie[3], scopedKey(token, scope)) ? scope : undefined;
}

export function scopedCookie(token: string, scope: Scope): string {
  return `${SCOPED_COOKIE}=${scope.kind}.${scope.id}.${scopedKey(token, scope)}; HttpOnly; SameSite=Strict; Path=/`;
}

/** A link to one scoped page: the console's address with the page's key instead of the token. */
export function scopedUrl(consoleUrl: string, token: string, scope: Scope): string {
  const u = new URL(consoleUrl);
  u.search = '';
  u.pathname = `/${scope.kind}/${scope.id}`;
  u.searchParams.set('key', scopedKey(token, scope));
  return u.href;
}

/** 'ok', or why not: 'missing' (401) or 'wrong' (403). */
export function tokenCheck(req: IncomingMessage, token: string): 'ok' | 'missing' | 'wrong' {
  const given = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? cookieOf(req, COOKIE);
  if (!given) return 'missing';
  return same(given, token) ? 'ok' : 'wrong';
}

/** The Host header names this server (rebinding), and an Origin, if sent, is this server too. */
export function hostAndOriginOk(req: IncomingMessage, hosts: string[] | undefined): boolean {
  const host = hostnameOf(req.headers.host);
  if (host === undefined) return false;
  if (hosts && !hosts.includes(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let from: URL;
  try { from = new URL(origin); } catch { return false; }
  return from.host === req.headers.host && (hosts ? hosts.includes(from.hostname) : true);
}

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try { return new URL(`http://${host}`).hostname; } catch { return undefined; }
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const digest = (t: string) => createHash('sha256').update(t, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
