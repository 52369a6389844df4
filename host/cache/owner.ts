// Cached results belong to the principal whose call fetched them
// ([[mcp.clients]]): its name is part of the key, so one client never reads
// what another fetched (what a page showed a logged-in client, what it searched).
import type { CallContext } from '../policies/types.js';

export function ownerOf(call: CallContext | undefined): { client?: string } {
  return call?.principal ? { client: call.principal.name } : {};
}
