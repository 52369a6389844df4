// [[mcp.clients]]: two principals with their own tokens on one `webcap mcp
// --http`. Client B, with its own valid token, tries every way into client
// A's state: A's MCP session id, A's browser session by name and by default,
// A's remembered approval, A's cached scrape; and B's narrower allowlist and
// budgets hold for B alone. Each call is recorded with its client's name.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';

const ENV = { ALICE_TOKEN: 'alice-token-7f3e1b', BOB_TOKEN: 'bob-token-c41d09' };
let site: FixtureServer;
let mcp: McpHttpServer;
let chainPath: string;
const at = (path: string, host = 'site.test') => site.url(host, path);

function clientsConfig(dir: string) {
  const base = testConfig({ dir, browser: { domains_allowlist: ['*.test'], default_timeout_ms: 30_000, max_concurrent_sessions: 10 }, network: { resolve: { 'site.test': '127.0.0.1', 'other.test': '127.0.0.1' } }, consent: { non_interactive: 'deny', approval_ttl_s: 600 } });
  return {
    ...base,
    mcp: { clients: [
      { name: 'alice', token_env: 'ALICE_TOKEN' },
      { name: 'bob', token_env: 'BOB_TOKEN', domains_allowlist: ['site.test'], budgets: { per_capability_per_hour: { 'web.open': 3 } } },
    ] },
  };
}

interface Connected { client: Client; transport: StreamableHTTPClientTransport; asked: number }
async function connect(token: string, answer: () => ElicitResult): Promise<Connected> {
  const client = new Client({ name: 'agent', version: '1' }, { capabilities: { elicitation: {} } });
  const c: Connected = { client, transport: new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }), asked: 0 };
  client.setRequestHandler(ElicitRequestSchema, async () => { c.asked += 1; return answer(); });
  await client.connect(c.transport);
  return c;
}
const call = async (c: Connected, name: string, args: Record<string, unknown> = {}) => (await c.client.callTool({ name, arguments: args })) as CallToolResult;
function ok(r: CallToolResult): Record<string, unknown> {
  if (r.isError) throw new Error(`tool failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
}
function errorOf(r: CallToolResult): { code: string; message: string; details?: Record<string, unknown> } {
  expect(r.isError).toBe(true);
  const first = r.content[0];
  return JSON.parse(first.type === 'text' ? first.text : '{}').error;
}
/** Says goodbye (DELETE), which closes the client's browser sessions. */
async function bye(c: Connected): Promise<void> {
  await c.transport.terminateSession();
  await c.client.close();
}
const yes = (): ElicitResult => ({ action: 'accept', content: { approve: true } });
const no = (): ElicitResult => ({ action: 'accept', content: { approve: false } });

beforeAll(async () => {
  site = await serve({
    '/a': (_q, res) => send(res, html('<h1>Alice page</h1><p id="who">alpha-private</p>')),
    '/order': (_q, res) => send(res, html('<h1>Order</h1><form action="/ordered" method="post"><input name="qty" value="1"><button id="buy" type="submit">Buy</button></form>')),
    '/ordered': (_q, res) => send(res, html('<h1>Ordered</h1>')),
    '/account': (_q, res) => send(res, html('<h1>Account</h1><p>alice-balance-1234</p>')),
  });
  const dir = tempDir('webcap-principals-');
  chainPath = join(dir, 'chain.jsonl');
  mcp = await startMcpHttp({ listen: '127.0.0.1:0', config: clientsConfig(dir), env: ENV });
});
afterAll(async () => {
  await mcp?.close();
  await site?.close();
});

describe('[[mcp.clients]]: client B with its own valid token cannot reach client A\'s state', () => {
  it('B cannot use A\'s MCP session id, nor A\'s browser session by name or by default', async () => {
    const a = await connect(ENV.ALICE_TOKEN, yes);
    const b = await connect(ENV.BOB_TOKEN, yes);
    const sa = ok(await call(a, 'web_open', { url: at('/a') })).session as string;
    // B's token with A's Mcp-Session-Id: as if the session did not exist.
    const hijack = await fetch(mcp.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${ENV.BOB_TOKEN}`, 'mcp-session-id': a.transport.sessionId!, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'web_snapshot', arguments: {} } }),
    });
    expect(hijack.status).toBe(404);
    expect(await hijack.text()).not.toContain('alpha-private');
    // By name and by default.
    for (const [tool, args] of [['web_snapshot', { session: sa }], ['web_click', { session: sa, selector: '#who' }], ['web_close', { session: sa }], ['web_snapshot', {}], ['web_url', {}]] as const) {
      expect(errorOf(await call(b, tool, args)).code).toBe('session_not_found');
    }
    const status = ok(await call(b, 'web_status')) as { sessions: unknown[] };
    expect(status.sessions).toEqual([]);
    // A's page is untouched and A still reaches it.
    expect(JSON.stringify(ok(await call(a, 'web_snapshot')))).toContain('alpha-private');
    await bye(a);
    await bye(b);
  });

  it('A\'s remembered approval is never B\'s: B is asked itself, and its "no" stops the submit', async () => {
    const a = await connect(ENV.ALICE_TOKEN, yes);
    const b = await connect(ENV.BOB_TOKEN, no);
    const before = site.hits.filter((h) => h.endsWith('/ordered')).length;
    ok(await call(a, 'web_open', { url: at('/order') }));
    ok(await call(a, 'web_click', { selector: '#buy' }));
    expect(a.asked).toBe(1);
    ok(await call(b, 'web_open', { url: at('/order') }));
    expect(errorOf(await call(b, 'web_click', { selector: '#buy' })).code).toBe('consent_denied');
    expect(b.asked).toBe(1);
    // Only A's order reached the site.
    expect(site.hits.filter((h) => h.endsWith('/ordered')).length - before).toBe(1);
    // A's approval is still remembered for A: asked no more.
    ok(await call(a, 'web_open', { url: at('/order') }));
    ok(await call(a, 'web_click', { selector: '#buy' }));
    expect(a.asked).toBe(1);
    await bye(a);
    await bye(b);
  });

  it('A\'s recorded calls never reach B\'s plan export, by A\'s session name or as B\'s last', async () => {
    const a = await connect(ENV.ALICE_TOKEN, yes);
    const b = await connect(ENV.BOB_TOKEN, yes);
    const sa = ok(await call(a, 'web_open', { url: at('/a?alice-only-step') })).session as string;
    ok(await call(b, 'web_open', { url: at('/a?bob-step') }));
    const byName = await call(b, 'web_plan_export', { session: sa });
    expect(JSON.stringify(byName)).not.toContain('alice-only-step');
    const last = await call(b, 'web_plan_export', {});
    expect(JSON.stringify(last)).not.toContain('alice-only-step');
    expect(JSON.stringify(ok(last))).toContain('bob-step');
    // The positive control: A's own export holds A's step.
    expect(JSON.stringify(ok(await call(a, 'web_plan_export', {})))).toContain('alice-only-step');
    await bye(a);
    await bye(b);
  });

  it('A\'s cached scrape is never served to B: B\'s scrape goes to the site', async () => {
    const a = await connect(ENV.ALICE_TOKEN, yes);
    const b = await connect(ENV.BOB_TOKEN, yes);
    const count = () => site.hits.filter((h) => h.endsWith('/account')).length;
    const start = count();
    expect(ok(await call(a, 'web_scrape', { url: at('/account'), render: 'never' })).cached).not.toBe(true);
    expect(ok(await call(a, 'web_scrape', { url: at('/account'), render: 'never' })).cached).toBe(true);
    expect(count() - start).toBe(1);
    expect(ok(await call(b, 'web_scrape', { url: at('/account'), render: 'never' })).cached).not.toBe(true);
    expect(count() - start).toBe(2);
    await bye(a);
    await bye(b);
  });

  it('B\'s allowlist and budgets narrow the host\'s for B alone; each call is recorded with its client\'s name', async () => {
    const a = await connect(ENV.ALICE_TOKEN, yes);
    const b = await connect(ENV.BOB_TOKEN, yes);
    expect(errorOf(await call(b, 'web_open', { url: at('/a', 'other.test') })).code).toBe('not_allowlisted');
    const sa = ok(await call(a, 'web_open', { url: at('/a', 'other.test') })).session as string;
    ok(await call(a, 'web_close', { session: sa }));
    // B may open 3 pages an hour (the refused open above spent nothing): open until refused.
    let spent: ReturnType<typeof errorOf> | undefined;
    for (let i = 0; i < 4 && !spent; i++) {
      const r = await call(b, 'web_open', { url: at('/a') });
      if (r.isError) spent = errorOf(r);
    }
    expect(spent?.code).toBe('budget_exceeded');
    expect(spent?.details).toMatchObject({ budget: 'client:bob:capability:web.open/hour' });
    expect(spent?.details?.retry_after_ms).toBeGreaterThan(0);
    // A is not counted against B's budget.
    for (let i = 0; i < 4; i++) ok(await call(a, 'web_close', { session: ok(await call(a, 'web_open', { url: at('/a') })).session as string }));
    const entries = readEntries(chainPath).filter((e) => e.kind === 'call');
    expect(entries.filter((e) => e.via?.client === 'bob' && e.capability === 'web.open' && !e.error)).toHaveLength(3);
    expect(entries.filter((e) => e.via?.client === 'bob').length).toBeGreaterThan(5);
    expect(entries.filter((e) => e.via?.client === 'alice').length).toBeGreaterThan(5);
    expect(entries.every((e) => e.via?.client === 'alice' || e.via?.client === 'bob' || e.via === undefined)).toBe(true);
    await bye(a);
    await bye(b);
  });
});

describe('[[mcp.clients]] at start', () => {
  it('refuses --token-env alongside it, a client whose variable is unset, and two clients with one token', async () => {
    const config = clientsConfig(tempDir());
    expect((await failure(startMcpHttp({ listen: '127.0.0.1:0', config, env: ENV, tokenEnv: 'WEBCAP_MCP_TOKEN' }))).message).toMatch(/use one/);
    expect((await failure(startMcpHttp({ listen: '127.0.0.1:0', config, env: { ALICE_TOKEN: ENV.ALICE_TOKEN } }))).message).toMatch(/BOB_TOKEN is not set/);
    expect((await failure(startMcpHttp({ listen: '127.0.0.1:0', config, env: { ALICE_TOKEN: 'same-token-123', BOB_TOKEN: 'same-token-123' } }))).message).toMatch(/same token/);
    const twice = { ...config, mcp: { clients: [{ name: 'alice', token_env: 'ALICE_TOKEN' }, { name: 'alice', token_env: 'BOB_TOKEN' }] } };
    expect((await failure(startMcpHttp({ listen: '127.0.0.1:0', config: twice, env: ENV }))).message).toMatch(/two clients are named "alice"/);
  });
});
