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

  it('ends after idle_timeout_s with its browser sessions, and its id is no longer accepted', async () => {
    const c = await client(mcp.url);
    const id = c.transport.sessionId!;
    const opened = (await c.client.callTool({ name: 'web_open', arguments: { url: site.url('site.test') } })) as CallToolResult;
    const session = (opened.structuredContent as { session: string }).session;
    expect(mcp.sessions()).toEqual([id]);
    await until(() => mcp.sessions().length === 0);
    await until(() => readEntries(join(dir, 'chain.jsonl')).some((e) => e.kind === 'call' && e.capability === 'web.close' && e.session === session));
    const close = readEntries(join(dir, 'chain.jsonl')).find((e) => e.kind === 'call' && e.capability === 'web.close' && e.session === session);
    expect(close?.via).toEqual({ mcp_session: id });
    await expect(c.client.callTool({ name: 'web_url', arguments: {} })).rejects.toThrow(/404|session/i);
    await c.client.close();
  }, 90_000); // two waits of up to 30 s each on a busy machine
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
