// Endpoints no governed browser may reach, whatever [network] allow_private
// says: the host's console (its token travels in the URL, and a page that
// reached it could answer its own consent questions). Checked where the
// connection is made (the guard proxy) and at the route layer.
import type { Denial } from '../../manifests/net/resolve.js';

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

export class RefusedEndpoints {
  private readonly keys = new Set<string>();

  add(host: string, port: number): void {
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    this.keys.add(`${WILDCARDS.has(bare) ? '*' : bare}|${port}`);
  }

  /** A denial when connecting to `address`:`port` would reach a refused endpoint. */
  check(address: string, port: number, host = address): Denial | undefined {
    const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
    const mapped = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
    if (!this.keys.has(`${mapped}|${port}`) && !this.keys.has(`*|${port}`)) return undefined;
    return { ok: false, code: 'ssrf_blocked', reason: `${host}:${port} is the webcap console, which a governed browser may never reach`, host };
  }
}

/** The port a URL connects to (its own, or the scheme's default). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}
