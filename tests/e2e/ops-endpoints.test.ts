// /metrics and /healthz as an operator's scraper and load balancer see them:
// on `webcap mcp --http` (its own token) and on the operations server the
// daemon and browser-server run ([metrics] listen). /healthz answers without
// a token; /metrics does not. A refused call shows up by capability, code and
// policy; a hostile tool name does not show up at all.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { createHost } from '../../host/host.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { health } from '../../host/ops/health.js';
import { startOpsServer } from '../../host/ops/ops-server.js';
import { webcap } from '../helpers/cli.js';
import { tempDir, testConfig } from '../helpers/host.js';

const TOKEN = 'ops-token-31c9aa';
let mcp: McpHttpServer;
const base = () => mcp.url.replace(/\/mcp$/, '');
const get = (url: string, token?: string) => fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});

beforeAll(async () => {
  const dir = tempDir('webcap-ops-');
  mcp = await startMcpHttp({ listen: '127.0.0.1:0', config: testConfig({ dir, browser: { domains_allowlist: ['site.test'] } }), env: { WEBCAP_MCP_TOKEN: TOKEN } });
});
afterAll(async () => { await mcp?.close(); });

describe('webcap mcp --http: /healthz and /metrics', () => {
  it('answers /healthz without a token: 200 {"ok":true,"checks":[…]} naming each check, no details', async () => {
    const r = await get(`${base()}/healthz`);
    expect(r.status).toBe(200);
    const body = await r.json() as { ok: boolean; checks: Array<{ name: string; ok: boolean }> };
    expect(body.ok).toBe(true);
    expect(body.checks.map((c) => c.name)).toEqual(['workspace', 'chain', 'store']);
    expect(JSON.stringify(body)).not.toMatch(/\/tmp|webcap-ops-/);
  });

  it('refuses /metrics without the token, serves it with the token', async () => {
    expect((await get(`${base()}/metrics`)).status).toBe(401);
    expect((await get(`${base()}/metrics`, 'wrong')).status).toBe(401);
    const r = await get(`${base()}/metrics`, TOKEN);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    expect(await r.text()).toContain('# TYPE webcap_calls_total counter');
  });

  it('counts a refused call by capability, code and policy; a hostile tool name never becomes a label', async () => {
    const client = new Client({ name: 'ops', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const refused = await client.callTool({ name: 'web_open', arguments: { url: 'http://elsewhere.test/secret-path?k=v' } });
    expect(refused.isError).toBe(true);
    await client.callTool({ name: 'https://evil.test/?token=abc', arguments: {} });
    await client.close();
    const text = await (await get(`${base()}/metrics`, TOKEN)).text();
    expect(text).toMatch(/webcap_calls_total\{capability="web\.open",outcome="error",code="not_allowlisted"\} [1-9]/);
    expect(text).toMatch(/webcap_policy_refusals_total\{policy="allowlist"\} [1-9]/);
    expect(text).toMatch(/webcap_call_duration_seconds_count\{capability="web\.open"\} [1-9]/);
    for (const leaked of ['elsewhere.test', 'secret-path', 'evil.test', 'token=abc']) expect(text).not.toContain(leaked);
  });
});

describe('the operations server ([metrics] listen: daemon, browser-server)', () => {
  it('answers 503 when a check fails (a shared store nobody serves), with the failing check named', async () => {
    const config = loadConfig({ workspace: { path: tempDir() }, store: { url: 'redis://127.0.0.1:1' } });
    const ops = await startOpsServer({ listen: '127.0.0.1:0', env: { WEBCAP_METRICS_TOKEN: TOKEN }, health: () => health(config) });
    try {
      const r = await get(`${ops.url}/healthz`);
      expect(r.status).toBe(503);
      const body = await r.json() as { ok: boolean; checks: Array<{ name: string; ok: boolean }> };
      expect(body.ok).toBe(false);
      expect(body.checks.find((c) => c.name === 'store')).toEqual({ name: 'store', ok: false });
      expect((await get(`${ops.url}/metrics`)).status).toBe(401);
      expect((await get(`${ops.url}/metrics`, TOKEN)).status).toBe(200);
      expect((await get(`${ops.url}/mcp`, TOKEN)).status).toBe(404);
    } finally {
      await ops.close();
    }
  });

  it('refuses to serve /metrics off loopback without a token', async () => {
    await expect(startOpsServer({ listen: '0.0.0.0:0', env: {}, health: async () => ({ ok: true, checks: [] }) })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});

describe('the daemon: [metrics] listen', () => {
  it('serves /healthz and /metrics while it runs, and stops serving when it stops', async () => {
    const dir = tempDir('webcap-ops-daemon-');
    const file = join(dir, 'agent_config.toml');
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    writeFileSync(file, `[workspace]\npath = "${dir}/ws"\n[chain]\npath = "${dir}/ws/chain.jsonl"\n[logging]\nfile = "${dir}/ws/webcap.log"\n[metrics]\nlisten = "127.0.0.1:${port}"\n`);
    expect((await webcap(['daemon', 'start', '--config', file], dir)).code).toBe(0);
    try {
      const r = await get(`http://127.0.0.1:${port}/healthz`);
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ ok: true });
      expect(await (await get(`http://127.0.0.1:${port}/metrics`)).text()).toContain('webcap_calls_total');
    } finally {
      await webcap(['daemon', 'stop', '--config', file], dir);
    }
    await expect(get(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});

describe('the library: host.metrics()', () => {
  it('returns the exposition text with the calls this host made', async () => {
    const host = createHost({ config: testConfig({ browser: { domains_allowlist: ['site.test'] } }) });
    try {
      await host.call('web.open', { url: 'http://not-listed.test/' }).catch(() => undefined);
      const text = await host.metrics();
      expect(text).toMatch(/webcap_calls_total\{capability="web\.open",outcome="error",code="not_allowlisted"\}/);
      expect(text).toContain('webcap_sessions{state="open"}');
      expect(text).toContain('webcap_chromium_rss_bytes');
    } finally {
      await host.close();
    }
  });
});
