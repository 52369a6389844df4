// The life of an MCP session over HTTP: tools that follow the browser session
// ([mcp] dynamic_tools, seen through the SDK client's list-changed handler),
// the idle end (idle_timeout_s), and the start-up refusal of a non-loopback
// bind without a token (through the real CLI; nothing ever binds).
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { projectRoot } from '../../manifests/load.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';

const TOKEN = 'sessions-token-77';
let site: FixtureServer;
beforeAll(async () => { site = await serve({ '/': (_q, res) => send(res, html('<h1>Home</h1>')) }); });
afterAll(async () => { await site?.close(); });

function configFor(dir: string, extra: Record<string, unknown> = {}, browser: Record<string, unknown> = {}) {
  return { ...testConfig({ dir, browser: { domains_allowlist: ['site.test'], ...browser }, network: { resolve: { 'site.test': '127.0.0.1' } } }), ...extra };
}

async function client(url: string, onTools?: (names: string[]) => void): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const c = new Client({ name: 'agent', version: '1.0.0' }, onTools ? { listChanged: { tools: { debounceMs: 0, onChanged: (_err, tools) => onTools((tools ?? []).map((t: Tool) => t.name)) } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await c.connect(transport);
  return { client: c, transport };
}

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 50))) if (Date.now() > end) throw new Error('timed out waiting');
}

describe('[mcp] dynamic_tools = true', () => {
  let mcp: McpHttpServer;
  beforeAll(async () => { mcp = await startMcpHttp({ listen: '127.0.0.1:0', config: configFor(tempDir('webcap-dyn-'), { mcp: { dynamic_tools: true, tool_list: 'full' } }), env: { WEBCAP_MCP_TOKEN: TOKEN } }); });
  afterAll(async () => { await mcp?.close(); });

  it('lists only session-less tools until a session opens, then the page tools (list_changed), and drops them when the last closes', async () => {
    const changes: string[][] = [];
    const c = await client(mcp.url, (names) => changes.push(names));
    const before = (await c.client.listTools()).tools.map((t) => t.name);
    expect(before).toEqual(expect.arrayContaining(['web_open', 'web_scrape', 'web_search', 'web_places_search', 'web_status', 'ccos_user_ask']));
    for (const pageTool of ['web_click', 'web_fill', 'web_extract', 'web_close', 'web_snapshot']) expect(before).not.toContain(pageTool);

    const first = (await c.client.callTool({ name: 'web_open', arguments: { url: site.url('site.test') } })) as CallToolResult;
    expect(first.isError).toBeFalsy();
    await until(() => changes.length === 1);
    expect(changes[0]).toEqual(expect.arrayContaining(['web_click', 'web_extract', 'web_close', ...before]));
    // A second session changes nothing in the list: no notification.
    await c.client.callTool({ name: 'web_open', arguments: { url: site.url('site.test') } });
    await c.client.callTool({ name: 'web_close', arguments: {} });
    expect(changes).toHaveLength(1);
    await c.client.callTool({ name: 'web_close', arguments: {} });
    await until(() => changes.length === 2);
    expect(changes[1].sort()).toEqual([...before].sort());
    await c.transport.terminateSession();
    await c.client.close();
  });
});

describe('an idle MCP session', () => {
  let mcp: McpHttpServer;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('webcap-idle-');
    mcp = await startMcpHttp({ listen: '127.0.0.1:0', config: configFor(dir, {}, { idle_timeout_s: 1 }), env: { WEBCAP_MCP_TOKEN: TOKEN } });
  });
  afterAll(async () => { await mcp?.close(); });
  const chain = () => readEntries(join(dir, 'chain.jsonl'));
  // A browser session's end: the MCP session's web.close, or the browser's own idle close (same idle_timeout_s),
  // whichever comes first; either is on the chain with the MCP session's id.
  const closeOf = (session: string) => chain().find((e) => e.session === session && ((e.kind === 'call' && e.capability === 'web.close') || (e.kind === 'event' && (e.result as { event?: string } | null)?.event === 'session_idle_closed')));
  const raw = (c: { transport: StreamableHTTPClientTransport }, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${TOKEN}`, 'mcp-session-id': c.transport.sessionId!, 'mcp-protocol-version': c.transport.protocolVersion!, ...extra,
  });

  it('ends after idle_timeout_s with its browser sessions, and its id is no longer accepted', async () => {
    const c = await client(mcp.url);
    const id = c.transport.sessionId!;
    const opened = (await c.client.callTool({ name: 'web_open', arguments: { url: site.url('site.test') } })) as CallToolResult;
    const session = (opened.structuredContent as { session: string }).session;
    expect(mcp.sessions()).toEqual([id]);
    await until(() => mcp.sessions().length === 0);
    await until(() => closeOf(session) !== undefined);
    expect(closeOf(session)?.via).toEqual({ mcp_session: id });
    await expect(c.client.callTool({ name: 'web_url', arguments: {} })).rejects.toThrow(/404|session/i);
    await c.client.close();
  }, 90_000); // two waits of up to 30 s each on a busy machine

  it('ends though its client keeps reopening its listening stream and retrying a second one (a stream is not use)', async () => {
    const c = await client(mcp.url);
    const id = c.transport.sessionId!;
    const headers = raw(c, { accept: 'text/event-stream' });
    await c.client.close(); // its own stream goes; from here only the raw GETs below reach the session
    const statuses: number[] = [];
    let held: AbortController | undefined;
    const get = async () => {
      const abort = new AbortController();
      const res = await fetch(mcp.url, { headers, signal: abort.signal });
      statuses.push(res.status);
      if (res.ok) return abort;
      await res.body?.cancel();
      return undefined;
    };
    // Every 300 ms: a second GET (refused 409: one stream per session), and every other time the held stream is
    // dropped and reopened, as a client reconnecting would; until the session is gone.
    for (let i = 0; mcp.sessions().includes(id); i++) {
      if (i % 2 === 0) { held?.abort(); held = await get(); } else await get();
      await new Promise((r) => setTimeout(r, 300));
      if (i > 100) throw new Error('the session outlived 100 stream reopenings');
    }
    held?.abort();
    expect(statuses).toContain(200);
    expect(statuses).toContain(409);
    const after = await fetch(mcp.url, { headers });
    await after.body?.cancel();
    expect(after.status).toBe(404);
  }, 90_000);

  it('is not ended in the middle of a call longer than idle_timeout_s, and ends after it', async () => {
    const c = await client(mcp.url);
    const id = c.transport.sessionId!;
    const opened = (await c.client.callTool({ name: 'web_open', arguments: { url: site.url('site.test') } })) as CallToolResult;
    const session = (opened.structuredContent as { session: string }).session;
    const waited = c.client.callTool({ name: 'web_wait', arguments: { time: 4000 } });
    await until(() => chain().some((e) => e.kind === 'intent' && e.capability === 'web.wait' && e.session === session));
    await new Promise((r) => setTimeout(r, 2000)); // the call started at most now - 2 s and lasts 4 s
    expect(mcp.sessions()).toContain(id);
    expect(((await waited) as CallToolResult).isError).toBeFalsy();
    await until(() => !mcp.sessions().includes(id));
    await until(() => closeOf(session) !== undefined);
    const wait = chain().find((e) => e.kind === 'call' && e.capability === 'web.wait' && e.session === session)!;
    expect(closeOf(session)!.seq).toBeGreaterThan(wait.seq);
    await c.client.close();
  }, 90_000);

  it('a call whose client went away keeps the session until the call is over, then the session ends', async () => {
    const c = await client(mcp.url);
    const id = c.transport.sessionId!;
    const opened = (await c.client.callTool({ name: 'web_open', arguments: { url: site.url('site.test') } })) as CallToolResult;
    const session = (opened.structuredContent as { session: string }).session;
    const abort = new AbortController();
    const post = fetch(mcp.url, {
      method: 'POST', signal: abort.signal,
      headers: raw(c, { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 901, method: 'tools/call', params: { name: 'web_wait', arguments: { time: 4000 } } }),
    }).catch(() => undefined);
    await until(() => chain().some((e) => e.kind === 'intent' && e.capability === 'web.wait' && e.session === session));
    abort.abort();
    await post;
    await new Promise((r) => setTimeout(r, 2000)); // the call started at most now - 2 s and lasts 4 s
    expect(mcp.sessions()).toContain(id);
    await until(() => !mcp.sessions().includes(id));
    await until(() => closeOf(session) !== undefined);
    const wait = chain().find((e) => e.kind === 'call' && e.capability === 'web.wait' && e.session === session)!;
    expect(wait.error).toBeNull();
    expect(closeOf(session)!.seq).toBeGreaterThan(wait.seq);
    await c.client.close();
  }, 90_000);
});

describe('webcap mcp --http (the CLI)', () => {
  it('prints its url, serves clients with the token from --token-env, and exits 0 on SIGTERM', async () => {
    const dir = tempDir('webcap-cli-http-');
    const configFile = join(dir, 'agent_config.toml');
    writeFileSync(configFile, '[capabilities.browser]\ndomains_allowlist = ["site.test"]\n[logging]\nfile = "webcap.log"\n[chain]\npath = "chain.jsonl"\n');
    const child = spawn(process.execPath, ['bin/webcap.js', 'mcp', '--http', '127.0.0.1:0', '--token-env', 'MY_MCP_TOKEN', '--config', configFile], {
      cwd: projectRoot(), env: { ...process.env, MY_MCP_TOKEN: TOKEN, WEBCAP_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); const line = out.split('\n')[0]; if (out.includes('\n')) resolve(JSON.parse(line).url); });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const c = await client(url);
    expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('web_open');
    await c.client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('webcap mcp --http on a non-loopback address', () => {
  it('refuses to start without a token, naming the variable', () => {
    const run = spawnSync(process.execPath, ['bin/webcap.js', 'mcp', '--http', '0.0.0.0:0', '--token-env', 'NO_SUCH_TOKEN_VAR'], {
      cwd: projectRoot(), encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_SUCH_TOKEN_VAR: '', WEBCAP_CONFIG: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/error: invalid_params: refusing to serve MCP on 0\.0\.0\.0 \(not loopback\) without a token: set NO_SUCH_TOKEN_VAR/);
    expect(run.stdout).toBe('');
  });
});
