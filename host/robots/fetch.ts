// Fetches an origin's robots.txt and says what it means under RFC 9309 §2.3.1:
// 2xx → the rules; 4xx (404 included) → allow all ("unavailable"); 5xx or no
// answer → disallow all ("unreachable"); redirects followed up to 5 hops, and
// past that the file counts as unavailable (allow all), as the RFC permits.
// Every hop passes the same network policy as a navigation (scheme,
// allowlist, SSRF) before anything connects, and the connection goes to the
// address that was checked: a robots.txt must not be a way to reach a private
// server. A hop the policy refuses (or a Location that is not a URL) ends the
// fetch as "unavailable" (allow all): we never connect to it, and the page
// itself still meets the policy on its own.
import { parseHostAsIp } from '../../manifests/net/address.js';
import { normalizeHost } from '../../manifests/net/hostname.js';
import { checkUrl, type NetPolicy } from '../../manifests/net/resolve.js';
import { httpGet, type HttpGetOptions } from './http-get.js';
import { MAX_ROBOTS_BYTES } from './rules.js';

export type RobotsFetch =
  | { kind: 'rules'; body: string; url: string }
  | { kind: 'allow_all'; reason: string }
  | { kind: 'disallow_all'; reason: string }
  // The host could not be reached at all (no DNS answer, connection refused):
  // the page cannot load either, so the caller says so (navigation_failed)
  // rather than blaming robots.txt. A 5xx answer is still disallow_all.
  | { kind: 'unreachable'; host: string; reason: string };

/** Errors that mean nothing answers at that name/address, as opposed to a slow or broken answer. */
const NOTHING_THERE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ERR_SOCKET_BAD_PORT']);

type RobotsFetchOptions = HttpGetOptions & { policy: Omit<NetPolicy, 'resolve'> };

export const MAX_REDIRECTS = 5;

export async function fetchRobots(origin: string, opts: RobotsFetchOptions, get = httpGet): Promise<RobotsFetch> {
  let url = new URL(`${origin}/robots.txt`);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const verdict = await checkUrl(url, { ...opts.policy, resolve: opts.resolve });
    if (!verdict.ok && verdict.unresolved) return { kind: 'unreachable', host: url.host, reason: verdict.reason };
    if (!verdict.ok) return { kind: 'allow_all', reason: `robots.txt at ${url.href} refused by the network policy (${verdict.reason}): treated as unavailable` };
    let res;
    try {
      // RFC 9309 §2.5: read at most 500 KiB; the rest is never downloaded.
      res = await get(url.href, { ...opts, maxBytes: MAX_ROBOTS_BYTES, resolve: pinned(url, verdict.addresses, opts.resolve) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code && NOTHING_THERE.has(code)) return { kind: 'unreachable', host: url.host, reason: `${code}: ${(err as Error).message}` };
      return { kind: 'disallow_all', reason: `robots.txt unreachable (${(err as Error).message})` };
    }
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      try {
        url = new URL(res.headers.location, url);
      } catch {
        return { kind: 'allow_all', reason: `robots.txt redirected to an invalid URL: treated as unavailable` };
      }
      continue;
    }
    if (res.status >= 200 && res.status < 300) return { kind: 'rules', body: res.body, url: url.href };
    if (res.status >= 400 && res.status < 500) return { kind: 'allow_all', reason: `robots.txt answered ${res.status}: allow all` };
    return { kind: 'disallow_all', reason: `robots.txt answered ${res.status}: disallow all` };
  }
  return { kind: 'allow_all', reason: `robots.txt redirected more than ${MAX_REDIRECTS} times: treated as unavailable` };
}

/** The resolve map with this host pinned to the address the policy approved (no DNS-rebinding gap). */
function pinned(url: URL, addresses: string[], resolve: Record<string, string>): Record<string, string> {
  const host = normalizeHost(url.hostname);
  if (parseHostAsIp(host) || !addresses.length || Object.keys(resolve).some((name) => normalizeHost(name) === host)) return resolve;
  const address = addresses[0];
  return { ...resolve, [host]: address.includes(':') ? `[${address}]` : address };
}
