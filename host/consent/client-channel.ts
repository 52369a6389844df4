// A client's own consent channel ([[mcp.clients]] consent) narrows who may
// answer its questions: "deny" (nobody: refused, saying nobody was asked),
// "console" (only the person at the console: the client's own form, the
// terminal, --yes and non_interactive do not answer), "mcp_elicitation" (only
// the client's own MCP form: never the console, and a client without the form
// gets nobody, not the host's non_interactive or --yes).
import type { ClientConsent, McpClientConfig } from '../config/types.js';
import { nobodyAsker, type Asker } from './asker.js';
import type { ClientChannel } from './gate.js';

export function clientChannels(
  clients: readonly McpClientConfig[],
  /** The host's asker for MCP clients (each question to the client that raised it), without the console. */
  clientAsker: Asker | undefined,
  /** The console raced against an asker (while one serves). */
  withConsole: (inner: Asker) => Asker,
): (owner: string) => ClientChannel | undefined {
  const byName = new Map<string, ClientConsent | undefined>(clients.map((c) => [c.name, c.consent]));
  const nobody = nobodyAsker('deny');
  const consoleOnly = withConsole(nobody);
  const formOnly: Asker = clientAsker ? only('mcp_elicitation', clientAsker) : nobody;
  return (owner) => {
    switch (byName.get(owner)) {
      case 'deny': return 'deny';
      case 'console': return consoleOnly;
      case 'mcp_elicitation': return formOnly;
      default: return undefined;
    }
  };
}

/** Answers from `channel` count; any other (a fallback's fixed answer) means nobody was asked. */
function only(channel: string, asker: Asker): Asker {
  return async (q, ctx) => {
    const raw = await asker(q, ctx?.signal ? { signal: ctx.signal } : undefined);
    const a = typeof raw === 'boolean' ? { approved: raw } : raw;
    return a.channel === channel ? a : { approved: false, channel: 'config', nobody: true };
  };
}
