// `webcap mcp --http` as remote MCP clients see it: the SDK's own Client over
// StreamableHTTPClientTransport, a real host, sidecar and headless Chromium,
// and loopback fixture pages. Two clients share the server but never each
// other's pages; consent reaches the client whose call raised it.
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';

const TOKEN = 'test-token-5f1c2a9e';
const routes = {
  '/a': (_q: unknown, res: Parameters<typeof send>[0]) => send(res, html('<h1>Page A</h1><p id="who">alpha</p>')),
  '/b': (_q: unknown, res: Parameters<typeof send>[0]) => send(res, html('<h1>Page B</h1><p id="who">beta</p>')),
  '/order': (_q: unknown, res: Parameters<typeof send>[0]) => send(res, html(`<h1>Order</h1>
    <form action="/ordered" method="post"><input name="qty" value="1"><button id="buy" type="submit">Buy now</button></form>`)),
  '/ordered': (_q: unknown, res: Parameters<typeof send>[0]) => send(res, html('<h1>Ordered</h1>')),
};

let site: FixtureServer;
let mcp: McpHttpServer;
let chainPath: string;
const at = (path: string) => site.url('site.test', path);

interface Connected { client: Client; transport: StreamableHTTPClientTransport; asked: ElicitRequest['params'][] }

async function connect(opts: { token?: string; answer?: () => ElicitResult } = {}): Promise<Connected> {
  const asked: ElicitRequest['params'][] = [];
  const client = new Client({ name: 'remote-agent', version: '1.0.0' }, { capabilities: opts.answer ? { elicitation: {} } : {} });
  if (opts.answer) {
    const answer = opts.answer;
    client.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(req.params); return answer(); });
  }
  const token = opts.token ?? TOKEN;
  const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport, asked };
}

/** Ends the MCP session the way a client says goodbye (DELETE), then closes the client. */
async function bye(c: Connected): Promise<void> {
  await c.transport.terminateSession();
  await c.client.close();
}

async function eventually<T>(read: () => T | undefined, ms = 5000): Promise<T> {
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 50))) {
    const value = read();
    if (value !== undefined || Date.now() > end) return value as T;
  }
}

const call = async (c: Connected, name: string, args: Record<string, unknown> = {}) => (await c.client.callTool({ name, arguments: args })) as CallToolResult;
function ok(r: CallToolResult): Record<string, unknown> {
  if (r.isError) throw new Error(`tool failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
}
function errorOf(r: CallToolResult): { code: string; message: string } {
  expect(r.isError).toBe(true);
  const first = r.content[0];
  return JSON.parse(first.type === 'text' ? first.text : '{}').error;
}
const untrusted = (v: unknown) => /<<<untrusted-page-content [0-9a-f]{12}>>>([\s\S]*)<<<end-untrusted-page-content/.exec(String(v))?.[1] ?? String(v);

/** A raw POST of `initialize`, as a client that ignores the SDK would send it. */
function rawInitialize(headers: Record<string, string>): Promise<{ status: number; session: string | undefined }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  const url = new URL(mcp.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  site = await serve(routes);
  const dir = tempDir('webcap-mcp-http-');
  const config = testConfig({ dir, browser: { domains_allowlist: ['site.test'], idle_timeout_s: 300 }, network: { resolve: { 'site.test': '127.0.0.1' } }, consent: { non_interactive: 'deny', approval_ttl_s: 0 } });
  chainPath = join(dir, 'chain.jsonl');
  mcp = await startMcpHttp({ listen: '127.0.0.1:0', config, env: { WEBCAP_MCP_TOKEN: TOKEN } });
});
afterAll(async () => {
  await mcp?.close();
  await site?.close();
});

describe('webcap mcp --http', () => {
  it('refuses a missing or wrong token with 401 and opens no session', async () => {
    const before = mcp.sessions().length;
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Basic ${TOKEN}` }] as Array<Record<string, string>>) {
      const r = await rawInitialize(headers);
      expect(r.status).toBe(401);
      expect(r.session).toBeUndefined();
    }
    await expect(connect({ token: 'wrong' })).rejects.toThrow(/401|invalid/i);
    expect(mcp.sessions()).toHaveLength(before);
    // The right token opens one.
    const r = await rawInitialize({ authorization: `Bearer ${TOKEN}` });
    expect(r.status).toBe(200);
    expect(r.session).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await rawInitialize({ ...auth, host: `evil.test:${new URL(mcp.url).port}` })).status).toBe(403);
    expect((await rawInitialize({ ...auth, origin: 'http://evil.test' })).status).toBe(403);
    expect((await rawInitialize({ ...auth, origin: `http://localhost:${new URL(mcp.url).port}` })).status).toBe(200);
  });

  it('lists the tools and governs a call: allowlisted page opens, another host is refused, both in the chain with the MCP session id', async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['web_open', 'web_click', 'web_extract', 'ccos_user_ask']));
    const opened = ok(await call(c, 'web_open', { url: at('/a') }));
    expect(untrusted(opened.title)).toBe('Page A');
    expect(errorOf(await call(c, 'web_navigate', { url: 'http://elsewhere.test/' })).code).toBe('not_allowlisted');
    const mine = readEntries(chainPath).filter((e) => e.kind === 'call' && e.via?.mcp_session === c.transport.sessionId);
    expect(mine.map((e) => [e.capability, e.error?.code ?? null])).toEqual([['web.open', null], ['web.navigate', 'not_allowlisted']]);
    await bye(c);
  });

  it('keeps two clients apart: each sees only its own page and sessions', async () => {
    const a = await connect();
    const b = await connect();
    const sa = ok(await call(a, 'web_open', { url: at('/a') })).session as string;
    const sb = ok(await call(b, 'web_open', { url: at('/b') })).session as string;
    expect(sa).not.toBe(sb);
    // Without a session name each acts on its own page, though B opened last.
    expect(untrusted(ok(await call(a, 'web_url')).url)).toBe(at('/a'));
    expect(untrusted(ok(await call(b, 'web_url')).url)).toBe(at('/b'));
    // Naming the other's session is as if it did not exist.
    expect(errorOf(await call(a, 'web_click', { selector: '#who', session: sb })).code).toBe('session_not_found');
    expect(errorOf(await call(b, 'web_close', { session: sa })).code).toBe('session_not_found');
    expect(errorOf(await call(b, 'web_open', { url: at('/b'), session: sa })).code).toBe('session_not_found');
    // The attempts are in the chain, refused by the session_scope policy, with the client's MCP session id.
    const refused = readEntries(chainPath).filter((e) => e.decision?.policy === 'session_scope');
    expect(refused.map((e) => [e.capability, e.via?.mcp_session])).toEqual([
      ['web.click', a.transport.sessionId], ['web.close', b.transport.sessionId], ['web.open', b.transport.sessionId],
    ]);
    const status = ok(await call(a, 'web_status')) as { sessions: Array<{ session: string }> };
    expect(status.sessions.map((s) => s.session)).toEqual([sa]);
    // Ending B's MCP session closes B's browser session (recorded), and A's page is untouched.
    const bSession = b.transport.sessionId;
    await bye(b);
    const closed = await eventually(() => readEntries(chainPath).find((e) => e.kind === 'call' && e.capability === 'web.close' && e.session === sb));
    expect(closed?.via?.mcp_session).toBe(bSession);
    expect(closed?.error).toBeNull();
    expect(mcp.sessions()).not.toContain(bSession);
    expect(untrusted(ok(await call(a, 'web_url')).url)).toBe(at('/a'));
    await bye(a);
  });

  it('asks for consent over HTTP through elicitation, and only the client whose page it is', async () => {
    let answer: ElicitResult = { action: 'accept', content: { approve: false } };
    const a = await connect({ answer: () => answer });
    const b = await connect({ answer: () => ({ action: 'accept', content: { approve: true } }) });
    ok(await call(a, 'web_open', { url: at('/order') }));
    ok(await call(b, 'web_open', { url: at('/a') }));
    // Submitting a POST form is held for consent mid-click; A's user says no, then yes.
    const ordered = () => site.hits.filter((h) => h.endsWith('/ordered')).length;
    expect(errorOf(await call(a, 'web_click', { selector: '#buy' })).code).toBe('consent_denied');
    expect(ordered()).toBe(0); // denied: the POST never reached the server
    answer = { action: 'accept', content: { approve: true } };
    ok(await call(a, 'web_click', { selector: '#buy' }));
    expect(untrusted(ok(await call(a, 'web_url')).url)).toBe(at('/ordered'));
    expect(ordered()).toBe(1);
    expect(a.asked).toHaveLength(2);
    expect(a.asked[0].message).toMatch(/submit|form/i);
    expect(b.asked).toHaveLength(0);
    // ccos.user.ask goes to the asking client too.
    const reply = ok(await call(b, 'ccos_user_ask', { question: 'Go on?' }));
    expect(reply).toMatchObject({ approved: true });
    expect(b.asked.map((q) => q.message)).toEqual([expect.stringContaining('Go on?')]);
    expect(a.asked).toHaveLength(2);
    // The consent entries name the MCP session whose user answered.
    const consents = readEntries(chainPath).filter((e) => e.kind === 'consent');
    expect(consents.filter((e) => e.via?.mcp_session === a.transport.sessionId).map((e) => e.decision?.decision)).toEqual(['denied', 'approved']);
    expect(consents.filter((e) => e.via?.mcp_session === b.transport.sessionId).map((e) => e.decision?.decision)).toEqual(['approved']);
    await bye(a);
    await bye(b);
  });

  it('leaves a chain that verifies, entries with `via` included', () => {
    const entries = readEntries(chainPath);
    expect(entries.filter((e) => e.via?.mcp_session).length).toBeGreaterThan(10);
    expect(verifyChain(chainPath)).toMatchObject({ ok: true, entries: entries.length });
  });
});
