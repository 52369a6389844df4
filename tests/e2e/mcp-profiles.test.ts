// MCP: web_open takes profile too; the save on web_close asks the MCP client
// (elicitation) like any consent question.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../manifests/load.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';

let site: FixtureServer;
let client: Client;
let dir: string;
const asked: ElicitRequest['params'][] = [];

beforeAll(async () => {
  site = await serve({
    '/login': (_q, res) => { res.setHeader('set-cookie', 'sid=mcp-secret; Path=/'); send(res, html('<h1>In</h1>')); },
    '/': (_q, res) => send(res, html('<h1>Home</h1>')),
  });
  dir = tempDir('wcmp-');
  const config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[capabilities.browser]
domains_allowlist = ["site.test"]
respect_robots = false
[network]
resolve = { "site.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]
`);
  client = new Client({ name: 'profiles-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(req.params); return { action: 'accept', content: { approve: true } }; });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: [join(projectRoot(), 'bin/webcap.js'), 'mcp', '--config', config], cwd: dir,
    env: { ...process.env, WEBCAP_CONFIG: '', WEBCAP_PROFILE_KEY: randomBytes(32).toString('hex') } as Record<string, string>, stderr: 'pipe',
  }));
});
afterAll(async () => { await client?.close(); await site?.close(); });

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return JSON.stringify(r.content);
};

describe('MCP web_open {profile}', () => {
  it('lists profile on web_open, saves on web_close after the client approves, restores next time', async () => {
    const { tools } = await client.listTools();
    const open = tools.find((t) => t.name === 'web_open')!;
    expect(Object.keys(open.inputSchema.properties ?? {})).toContain('profile');
    await call('web_open', { url: site.url('site.test', '/login'), profile: 'mcp' });
    await call('web_close');
    expect(asked.some((q) => /Save browser profile "mcp"/.test(q.message))).toBe(true);
    expect(existsSync(join(dir, '.webcap', 'profiles', 'mcp.profile'))).toBe(true);
    await call('web_open', { url: site.url('site.test', '/'), profile: 'mcp' });
    expect(await call('web_cookies_get')).toContain('sid');
    await call('web_close');
  });
});
