// Refuses navigations to hosts that resolve to loopback, private, link-local,
// metadata, … addresses unless [network] allow_private lists them. Resolution
// honours [network] resolve (like curl --resolve), so a test host mapped to
// 127.0.0.1 needs "127.0.0.1" in allow_private, on purpose.
import { WebcapError } from '../../manifests/errors.js';
import { checkAddresses, type Lookup } from '../../manifests/net/resolve.js';
import type { WebcapConfig } from '../config/types.js';
import { navigationUrl } from './allowlist.js';
import type { Policy } from './types.js';

export function ssrfPolicy(config: WebcapConfig, lookup?: Lookup): Policy {
  const { resolve, allow_private: allowPrivate } = config.network;
  return async (call, next) => {
    const url = navigationUrl(call);
    // about:blank and refused schemes are the allowlist policy's business.
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return next();
    const verdict = await checkAddresses(url.hostname, { resolve, allowPrivate, lookup });
    if (!verdict.ok) {
      const { host, address, category } = verdict;
      call.decisions.push({ policy: 'ssrf', decision: 'denied', reason: verdict.reason, details: { host, address, category } });
      // A name that does not resolve is a failed navigation, not an attack.
      if (verdict.unresolved) throw new WebcapError('navigation_failed', verdict.reason, { host });
      throw new WebcapError('ssrf_blocked', verdict.reason, { host, address, category });
    }
    call.decisions.push({ policy: 'ssrf', decision: 'allowed', details: { host: url.hostname, addresses: verdict.addresses } });
    return next();
  };
}
