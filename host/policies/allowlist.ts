// First line of the network policy, for navigations (web.open, web.navigate):
// refuse a URL whose scheme or hostname the config does not allow before the
// sidecar is even asked. The sidecar's network guard repeats the check for
// every request the page then makes.
import { WebcapError } from '../../manifests/errors.js';
import { checkScheme, describeHostDenial, matchHost, normalizeHost } from '../../manifests/net/hostname.js';
import type { WebcapConfig } from '../config/types.js';
import type { CallContext, Policy } from './types.js';

/**
 * Only navigation capabilities (those with a url_param) are checked: for other
 * calls call.url is the page the session already shows, which the sidecar let
 * through, and web.close must keep working even on an error page.
 */
export function navigationUrl(call: CallContext): URL | undefined {
  return call.manifest.url_param ? call.url : undefined;
}

export function allowlistPolicy(config: WebcapConfig): Policy {
  const { domains_allowlist: allow, domains_denylist: deny } = config.capabilities.browser;
  return async (call, next) => {
    const url = navigationUrl(call);
    if (!url) return next();
    const scheme = checkScheme(url);
    if (!scheme.ok) {
      call.decisions.push({ policy: 'allowlist', decision: 'denied', reason: scheme.reason, details: { url: url.href } });
      throw new WebcapError('unsupported_scheme', `${call.capability}: ${scheme.reason}`, { url: url.href, scheme: scheme.scheme });
    }
    if (url.href === 'about:blank') return next();
    const host = normalizeHost(url.hostname);
    const m = matchHost(host, allow, deny);
    if (!m.allowed) {
      const reason = describeHostDenial(host, m);
      const details = m.rule ? { host, rule: m.rule } : { host };
      call.decisions.push({ policy: 'allowlist', decision: 'denied', reason, details });
      throw new WebcapError('not_allowlisted', reason, details);
    }
    const own = call.principal?.domains_allowlist;
    if (own) {
      const mine = matchHost(host, own, []);
      if (!mine.allowed) {
        const reason = `host "${host}" is not in the domains_allowlist of client ${call.principal!.name}`;
        call.decisions.push({ policy: 'allowlist', decision: 'denied', reason, details: { host, client: call.principal!.name } });
        throw new WebcapError('not_allowlisted', reason, { host, client: call.principal!.name });
      }
    }
    call.decisions.push({ policy: 'allowlist', decision: 'allowed', reason: `host "${host}" matches rule "${m.rule}"`, details: { host, rule: m.rule } });
    return next();
  };
}
