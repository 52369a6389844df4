// The rules in front of the console: where it may listen, the token (query
// parameter `token`, traded for a cookie by the page), and the Host/Origin
// checks against DNS rebinding and cross-site requests, the same rules as the
// MCP HTTP front. Pure functions, tested without a server.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebcapError } from '../../manifests/errors.js';
import { allowedHostnames, isLoopback, parseListen, tokenFrom, type Listen } from '../mcp/http-guard.js';

export interface ConsoleAccess { listen: Listen; token: string; hosts: string[] | undefined }

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
