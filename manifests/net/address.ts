// What kind of address an IP is, and whether the SSRF guard lets a request
// reach it. Pure: the host policy and the sidecar's network guard share it, so
// "is 0x7f.1 loopback?" has exactly one answer in the project.
import ipaddr from 'ipaddr.js';

export type AddressCategory =
  | 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'cgnat'
  | 'unspecified' | 'multicast' | 'broadcast' | 'reserved' | 'ula' | 'invalid';

// Cloud instance-metadata endpoints (AWS/GCP/Azure/Oracle, AWS ECS/EKS, Alibaba):
// the classic SSRF prize. Only an exact allow_private entry exempts them, never a CIDR.
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '169.254.170.23', '100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::23']);

const V4: Record<string, AddressCategory> = {
  unicast: 'public', unspecified: 'unspecified', broadcast: 'broadcast', multicast: 'multicast',
  linkLocal: 'link_local', loopback: 'loopback', carrierGradeNat: 'cgnat', private: 'private',
};
const V6: Record<string, AddressCategory> = {
  unicast: 'public', unspecified: 'unspecified', linkLocal: 'link_local', multicast: 'multicast',
  loopback: 'loopback', uniqueLocal: 'ula', deprecatedSiteLocal: 'private',
};

/**
 * The canonical IP a hostname denotes, or null when it is a name. Uses the
 * WHATWG URL parser, the one Chromium applies, so every IPv4 spelling a
 * browser accepts (2130706433, 0177.0.0.1, 0x7f.0.0.1, 127.1, 10.1) becomes
 * its dotted quad. IPv6 may come bracketed or bare; it is returned bare.
 */
export function parseHostAsIp(hostname: string): string | null {
  let host = hostname.trim().replace(/\.+$/, '');
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (/[/?#@\\\s]/.test(host)) return null;   // a URL part or CIDR, not a host
  if (host.includes(':')) return ipaddr.IPv6.isValid(host) ? ipaddr.IPv6.parse(host).toString() : null;
  let canonical: string;
  try {
    canonical = new URL(`http://${host}/`).hostname;
  } catch {
    return null;            // "1.2.3.4.5", "foo.123": not a host a browser would open either
  }
  // The URL parser has already turned every IPv4 spelling into four decimal
  // parts; a regex says so without ipaddr's parse, which throws (~40 µs) for
  // every ordinary hostname.
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(canonical) ? canonical : null;
}

/** Embedded IPv4 of NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses: they route to it. */
function embeddedV4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = addr.parts;
  const range = addr.range();
  if (range === 'rfc6052' || range === 'rfc6145') return new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]);
  if (range === '6to4') return new ipaddr.IPv4([p[1] >> 8, p[1] & 255, p[2] >> 8, p[2] & 255]);
  return null;
}

function categoryOf(addr: ipaddr.IPv4 | ipaddr.IPv6): AddressCategory {
  if (METADATA.has(addr.toString())) return 'metadata';
  if (addr.kind() === 'ipv4') return V4[addr.range()] ?? 'reserved';
  const v6 = addr as ipaddr.IPv6;
  const inner = embeddedV4(v6);
  if (inner) return categoryOf(inner);
  // ::a.b.c.d (IPv4-compatible, deprecated) and everything special ipaddr knows but we
  // do not name (teredo, discard, documentation, …) is "reserved": blocked.
  if (v6.parts.slice(0, 6).every((x) => x === 0) && v6.range() !== 'loopback' && v6.range() !== 'unspecified') return 'reserved';
  return V6[v6.range()] ?? 'reserved';
}

/** Parses like the browser (odd IPv4 spellings, brackets) and folds IPv4-mapped IPv6 into IPv4. */
function toAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const canonical = parseHostAsIp(ip);
  return canonical ? ipaddr.process(canonical) : null;
}

export function classifyAddress(ip: string): AddressCategory {
  const addr = toAddress(ip);
  return addr ? categoryOf(addr) : 'invalid';
}

function allowedBy(entry: string, addr: ipaddr.IPv4 | ipaddr.IPv6, exactOnly: boolean): boolean {
  if (entry.includes('/')) {
    if (exactOnly || !ipaddr.isValidCIDR(entry)) return false;
    const [net, bits] = ipaddr.parseCIDR(entry);
    const range = net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress()
      ? [(net as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] as const : [net, bits] as const;
    return range[0].kind() === addr.kind() && addr.match(range[0], range[1]);
  }
  const other = toAddress(entry);
  return other !== null && other.kind() === addr.kind() && other.toString() === addr.toString();
}

/**
 * Whether the SSRF guard stops a connection to `ip`. Public addresses pass;
 * any other category passes only when `allowPrivate` ([network] allow_private)
 * lists the address exactly or a CIDR containing it. Metadata endpoints need an
 * exact entry: allowing 169.254.0.0/16 for a lab device must not open the cloud
 * credentials endpoint as a side effect.
 */
export function isBlockedAddress(ip: string, allowPrivate: readonly string[]): { blocked: boolean; category: AddressCategory } {
  const addr = toAddress(ip);
  if (!addr) return { blocked: true, category: 'invalid' };
  const category = categoryOf(addr);
  if (category === 'public') return { blocked: false, category };
  const exempt = allowPrivate.some((e) => allowedBy(e.trim(), addr, category === 'metadata'));
  return { blocked: !exempt, category };
}

/** allow_private entries that are neither an IP nor a CIDR (for config validation messages). */
export function invalidAllowPrivate(entries: readonly string[]): string[] {
  return entries.filter((e) => (e.includes('/') ? !ipaddr.isValidCIDR(e.trim()) : toAddress(e) === null));
}
