// Who may call `webcap mcp --http`: either one token (--token-env, default
// WEBCAP_MCP_TOKEN) or the principals of [[mcp.clients]], each with its own
// token and name; not both. A client whose variable is unset, or two clients
// with one token, stop the server at start: a token must name one principal.
import { WebcapError } from '../../manifests/errors.js';
import type { McpClientConfig } from '../config/types.js';
import type { Principal } from '../policies/types.js';
import { TokenTable } from './http-auth.js';
import { DEFAULT_TOKEN_ENV, tokenFrom } from './http-guard.js';

export interface Callers {
  /** Absent: no token needed (loopback, no token set). */
  tokens?: TokenTable;
  /** The principal of an authenticated client name (absent with a single token). */
  principal(client: string | undefined): Principal | undefined;
  /** What to name in a refusal to bind without a token. */
  tokenEnv: string;
}

export function callersFrom(clients: McpClientConfig[], tokenEnv: string | undefined, env: NodeJS.ProcessEnv): Callers {
  if (clients.length === 0) {
    const name = tokenEnv ?? DEFAULT_TOKEN_ENV;
    const token = tokenFrom(env, name);
    return { tokens: token ? new TokenTable([{ name: '', token }]) : undefined, principal: () => undefined, tokenEnv: name };
  }
  if (tokenEnv !== undefined) {
    throw new WebcapError('invalid_params', '--token-env and [[mcp.clients]] both say who may call: use one (each [[mcp.clients]] entry names its own token_env)', { field: '--token-env' });
  }
  const seen = new Map<string, string>();
  const entries = clients.map((c) => {
    const token = tokenFrom(env, c.token_env);
    if (!token) throw new WebcapError('invalid_params', `[[mcp.clients]] "${c.name}": its token_env ${c.token_env} is not set`, { field: 'mcp.clients', client: c.name, token_env: c.token_env });
    const other = seen.get(token);
    if (other) throw new WebcapError('invalid_params', `[[mcp.clients]] "${c.name}" and "${other}" have the same token: each client needs its own`, { field: 'mcp.clients', client: c.name });
    seen.set(token, c.name);
    return { name: c.name, token };
  });
  const byName = new Map(clients.map((c) => [c.name, {
    name: c.name,
    ...(c.domains_allowlist ? { domains_allowlist: c.domains_allowlist } : {}),
    ...(c.budgets ? { budgets: c.budgets } : {}),
  } satisfies Principal]));
  return { tokens: new TokenTable(entries), principal: (client) => (client ? byName.get(client) : undefined), tokenEnv: clients.map((c) => c.token_env).join(', ') };
}
