// Hostname allow/deny rules and URL schemes: the "may this request go there at
// all" half of the network policy, shared by the host policy and the sidecar.
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import micromatch from 'micromatch';
import { parseHostAsIp } from './address.js';

/**
 * Lowercase, no trailing dot, IDN as punycode, IPs canonical (IPv6 without
 * brackets), so "Bücher.DE." and "xn--bcher-kva.de" are one host and
 * "0x7f.1" is "127.0.0.1".
 */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase().replace(/\.+$/, '');
  const ip = parseHostAsIp(h);
  if (ip) return ip;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(h)) h = domainToASCII(h) || h;
  return h;
}

/** An IP host as rules see it: IPv4-mapped IPv6 is the IPv4 it reaches. */
function folded(host: string): string | null {
  const ip = parseHostAsIp(host);
  return ip && ipaddr.process(ip).toString();
}

/** A normalised host, and the IP it is when it is one (folded). */
type RuleMatcher = (host: string, hostIp: string | null) => boolean;

// Rules are a short fixed set (config, site profiles) while hosts are checked on
// every action and every request a page makes: each rule is parsed and its
// globs compiled once (doing it per check cost ~0.2 ms a rule).
const compiled = new Map<string, RuleMatcher>();
const MAX_COMPILED = 10_000;

function matcherFor(rawRule: string): RuleMatcher {
  let matcher = compiled.get(rawRule);
  if (!matcher) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    matcher = compileRule(rawRule);
    compiled.set(rawRule, matcher);
  }
  return matcher;
}

function compileRule(rawRule: string): RuleMatcher {
  const rule = rawRule.includes('/') ? rawRule.trim() : normalizeHost(rawRule);
  if (rule === '') return () => false;
  if (rule === '*') return () => true;      // "allow everything", IPv6 literals included
  const cidr = rule.includes('/') && ipaddr.isValidCIDR(rule) ? ipaddr.parseCIDR(rule) : undefined;
  const ruleIp = folded(rule);
  const glob = ruleIp ? () => false : micromatch.matcher(rule, { nocase: true }); // IP rules never reach it
  // Decision: "*.example.org" also matches the bare "example.org". Users who
  // write it mean "example.org and its subdomains"; needing a second rule for
  // the apex surprised everyone. Same in the denylist (safer there too).
  const apex = !ruleIp && rule.startsWith('*.') ? micromatch.matcher(rule.slice(2), { nocase: true }) : undefined;
  return (host, hostIp) => {
    // IP rules compare as addresses (so "::1" and "[::1]" agree, and a glob's
    // [...] class syntax never meets IPv6 brackets); CIDRs are accepted too.
    if (hostIp && cidr) {
      const addr = ipaddr.parse(hostIp);
      return cidr[0].kind() === addr.kind() && addr.match(cidr);
    }
    if (ruleIp || hostIp?.includes(':')) return ruleIp === hostIp;
    const subject = hostIp ?? host;
    return glob(subject) || (apex?.(subject) ?? false);
  };
}

function ruleMatches(host: string, rule: string, hostIp = folded(host)): boolean {
  return matcherFor(rule)(host, hostIp);
}

/**
 * One hostname against one rule, with the allowlist's semantics (globs, "*.x"
 * covering x itself, IP and CIDR rules). Per-domain budgets and site profiles
 * use it too, so a domain pattern means the same thing everywhere.
 */
export function hostRuleMatches(hostname: string, rule: string): boolean {
  return ruleMatches(normalizeHost(hostname), rule);
}

interface HostMatch {
  allowed: boolean;
  /** The rule that decided, as written in the config; '' when no allowlist rule matched. */
  rule: string;
  via: 'denylist' | 'allowlist' | 'none';
}

/**
 * Micromatch globs on the hostname: `*` matches across dots (so "*.example.org"
 * covers "a.b.example.org"), and "*" alone allows every host. The denylist wins
 * over the allowlist; no matching allowlist rule means denied.
 */
export function matchHost(hostname: string, allowlist: readonly string[], denylist: readonly string[]): HostMatch {
  const host = normalizeHost(hostname);
  const hostIp = folded(host);
  const denied = denylist.find((r) => ruleMatches(host, r, hostIp));
  if (denied !== undefined) return { allowed: false, rule: denied, via: 'denylist' };
  const allowed = allowlist.find((r) => ruleMatches(host, r, hostIp));
  if (allowed !== undefined) return { allowed: true, rule: allowed, via: 'allowlist' };
  return { allowed: false, rule: '', via: 'none' };
}

/** The message a user reads when matchHost says no. */
export function describeHostDenial(host: string, m: HostMatch): string {
  return m.via === 'denylist'
    ? `host "${host}" is denied by rule "${m.rule}" in domains_denylist`
    : `host "${host}" is not allowed (no rule in domains_allowlist matches)`;
}

type SchemeCheck = { ok: true } | { ok: false; code: 'unsupported_scheme'; reason: string; scheme: string };

/**
 * Pages may be http(s) or about:blank. Subresources (what a page loads) may
 * also be ws/wss (the host then checks like http) and data:/blob:/about:srcdoc,
 * which never touch the network. Everything else (file:, javascript:, chrome:,
 * view-source:, ftp:, …) is refused: those reach local files or browser
 * internals, not the allowlisted web.
 */
export function checkScheme(url: URL | string, opts: { subresource?: boolean } = {}): SchemeCheck {
  let u: URL;
  try {
    u = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return { ok: false, code: 'unsupported_scheme', reason: `"${String(url)}" is not an absolute URL`, scheme: '' };
  }
  const scheme = u.protocol;
  if (scheme === 'http:' || scheme === 'https:' || u.href === 'about:blank') return { ok: true };
  if (opts.subresource && ['ws:', 'wss:', 'data:', 'blob:'].includes(scheme)) return { ok: true };
  if (opts.subresource && u.href === 'about:srcdoc') return { ok: true };
  const why = scheme === 'ws:' || scheme === 'wss:'
    ? 'websocket URLs cannot be opened as a page'
    : 'only http:, https: and about:blank are supported';
  return { ok: false, code: 'unsupported_scheme', reason: `scheme "${scheme}" is not supported: ${why}`, scheme };
}
