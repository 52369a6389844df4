// A client's own domains_allowlist ([[mcp.clients]]) as it travels to where
// requests leave: the browser's network guard (every session and scrape
// context its calls open) and the host's own HTTP reads (every redirect hop).
import type { Narrowing } from '../../manifests/net/resolve.js';
import type { CallContext } from './types.js';

export function narrowedOf(call: Pick<CallContext, 'principal'> | undefined): Narrowing | undefined {
  const own = call?.principal?.domains_allowlist;
  return own ? { client: call.principal!.name, domains_allowlist: own } : undefined;
}
