// Where a host really goes: IP literal, [network] resolve entry, or DNS; and
// the full verdict for a URL (scheme → hostname rules → every address).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isBlockedAddress, parseHostAsIp, type AddressCategory } from './address.js';
import { checkScheme, describeHostDenial, matchHost, normalizeHost } from './hostname.js';

export type Lookup = (hostname: string) => Promise<string[]>;

const TTL_MS = 30_000;
const MAX_ENTRIES = 1000;
// The sidecar checks every request a page makes; a page with 80 images on one
// host must not cost 80 lookups. In-flight lookups are shared too. One cache
// per lookup function, so a test's fake resolver never leaks into another's.
type Cache = Map<string, { until: number; addresses: Promise<string[]> }>;
const caches = new WeakMap<Lookup, Cache>();

const systemLookup: Lookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

function cachedLookup(host: string, lookup: Lookup): Promise<string[]> {
  let cache = caches.get(lookup);
  if (!cache) caches.set(lookup, (cache = new Map()));
  const hit = cache.get(host);
  if (hit && hit.until > Date.now()) return hit.addresses;
  if (cache.size >= MAX_ENTRIES) cache.clear();
  const addresses = lookup(host);
  cache.set(host, { until: Date.now() + TTL_MS, addresses });
  addresses.catch(() => cache.delete(host));   // failures are retried, not remembered
  return addresses;
}

/**
 * A `[network] resolve` value: an address, or address:port ([v6]:port) when
 * the fixture listens elsewhere than the URL's port (https://www.thefork.com
 * served on 127.0.0.1:8443), like Chromium's `MAP host addr:port`.
 */
export function parseResolveTarget(value: string): { address: string; port?: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (v6) return { address: v6[1], port: v6[2] ? Number(v6[2]) : undefined };
  const v4 = /^([^:]+):(\d+)$/.exec(value);
  if (v4) return { address: v4[1], port: Number(v4[2]) };
  return { address: value };
}

/** The port a resolve entry redirects this host to, if it names one. */
export function mappedPort(hostname: string, resolveMap: Record<string, string>): number | undefined {
  const host = normalizeHost(hostname);
  for (const [name, value] of Object.entries(resolveMap)) {
    if (normalizeHost(name) === host) return parseResolveTarget(value).port;
  }
  return undefined;
}

/** Like curl --resolve: a literal is itself, a resolve entry wins over DNS. */
export async function resolveHost(hostname: string, resolveMap: Record<string, string>, lookup: Lookup = systemLookup): Promise<string[]> {
  const host = normalizeHost(hostname);
  const literal = parseHostAsIp(host);
  if (literal) return [literal];
  for (const [name, ip] of Object.entries(resolveMap)) {
    if (normalizeHost(name) === host) return [parseResolveTarget(ip).address];
  }
  return cachedLookup(host, lookup);
}

export interface NetPolicy {
  allowlist: readonly string[];
  denylist: readonly string[];
  resolve: Record<string, string>;
  allowPrivate: readonly string[];
  /** Injected in tests; the system resolver otherwise. */
  lookup?: Lookup;
  /** A client's own allowlist, which only narrows `allowlist`: a host must match both. */
  narrowed?: Narrowing;
}

/** The domains_allowlist of one authenticated client ([[mcp.clients]]), named in refusals. */
export interface Narrowing { client: string; domains_allowlist: readonly string[] }

export type Denial = {
  ok: false;
  code: 'not_allowlisted' | 'ssrf_blocked' | 'unsupported_scheme';
  reason: string;
  host?: string;
  rule?: string;
  address?: string;
  category?: AddressCategory;
  /** DNS failed: the guard fails closed, but the host reports it as a navigation failure. */
  unresolved?: boolean;
};
export type Verdict = { ok: true; addresses: string[] } | Denial;

/** SSRF half: every address the host resolves to must be public or in allow_private. */
export async function checkAddresses(hostname: string, opts: Pick<NetPolicy, 'resolve' | 'allowPrivate' | 'lookup'>): Promise<Verdict> {
  const host = normalizeHost(hostname);
  let addresses: string[];
  try {
    addresses = await resolveHost(host, opts.resolve, opts.lookup);
  } catch (err) {
    const why = (err as { code?: string }).code ?? (err as Error).message;
    return { ok: false, code: 'ssrf_blocked', reason: `${host} could not be resolved (${why})`, host, unresolved: true };
  }
  if (addresses.length === 0) return { ok: false, code: 'ssrf_blocked', reason: `${host} resolves to no address`, host, unresolved: true };
  for (const address of addresses) {
    const { blocked, category } = isBlockedAddress(address, opts.allowPrivate);
    if (!blocked) continue;
    const what = parseHostAsIp(host) ? `${host} is a ${category} address` : `${host} resolves to ${address} (${category})`;
    const hint = category === 'metadata' ? ' (a metadata endpoint is exempt only when listed exactly)' : '';
    return { ok: false, code: 'ssrf_blocked', reason: `${what}, which is not in [network] allow_private${hint}`, host, address, category };
  }
  return { ok: true, addresses };
}

/** Hostname rules, then addresses: what a connection to `hostname` needs. */
export async function checkHost(hostname: string, opts: NetPolicy): Promise<Verdict> {
  const host = normalizeHost(hostname);
  const m = matchHost(host, opts.allowlist, opts.denylist);
  if (!m.allowed) return { ok: false, code: 'not_allowlisted', reason: describeHostDenial(host, m), host, rule: m.rule || undefined };
  if (opts.narrowed && !matchHost(host, opts.narrowed.domains_allowlist, []).allowed) {
    return { ok: false, code: 'not_allowlisted', reason: `host "${host}" is not in the domains_allowlist of client ${opts.narrowed.client}`, host };
  }
  return checkAddresses(host, opts);
}

/** The whole network policy for one URL. Non-network URLs (about:blank, data:, blob:) pass with no address. */
export async function checkUrl(url: URL, opts: NetPolicy & { subresource?: boolean }): Promise<Verdict> {
  const scheme = checkScheme(url, { subresource: opts.subresource });
  if (!scheme.ok) return { ok: false, code: 'unsupported_scheme', reason: scheme.reason };
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return { ok: true, addresses: [] };
  return checkHost(url.hostname, opts);
}
