// Two MCP SDK clients over HTTP hammer one host at once: every capability that
// takes `session`, with it and without it, and with the other client's. Each
// client's page, cookies, approvals and exports stay its own; the other's
// session is answered as if it did not exist. Hostile by design: without the
// owner on every call, a call without `session` lands on the latest page
// opened by anyone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';

const TOKEN = 'two-clients-token-4b1d';
const HOSTS = { a: 'alpha.test', b: 'beta.test' } as const;
type Who = keyof typeof HOSTS;

let site: FixtureServer;
let mcp: McpHttpServer;
let dir: string;
let chainPath: string;

// A page that names its client everywhere: heading, title, a cookie it sets, a POST form.
function page(who: string): string {
  return html(`<h1 id="who">${who}</h1><input id="q" name="q"><select id="sel"><option value="x">x</option><option value="y">y</option></select>
    <button id="go" onclick="document.querySelector('#out').textContent = document.querySelector('#q').value + '@${who}'">go</button><div id="out"></div>
    <form id="f" action="/ordered" method="post"><input name="qty" value="1"><input type="file" id="file" name="file"><button id="buy" type="submit">Buy</button></form>
    <script>document.cookie = 'who=${who}; path=/'</script>`, `<title>page of ${who}</title>`);
}

interface Connected { name: Who; client: Client; transport: StreamableHTTPClientTransport; asked: ElicitRequest['params'][] }

async function connect(name: Who): Promise<Connected> {
  const asked: ElicitRequest['params'][] = [];
  const client = new Client({ name: `agent-${name}`, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(req.params); return { action: 'accept', content: { approve: true } }; });
  const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await client.connect(transport);
  return { name, client, transport, asked };
}

const call = async (c: Connected, tool: string, args: Record<string, unknown> = {}) => (await c.client.callTool({ name: tool, arguments: args })) as CallToolResult;
const codeOf = (r: CallToolResult): string | undefined => {
  if (!r.isError) return undefined;
  const first = r.content[0];
  return (JSON.parse(first.type === 'text' ? first.text : '{}') as { error?: { code?: string } }).error?.code ?? 'unknown';
};

/** Every session-taking capability the config offers, with harmless params on the client's own page. */
function steps(who: Who): Array<[string, Record<string, unknown>]> {
  const own = site.url(HOSTS[who], `/p?m=${who}`);
  return [
    ['web_url', {}], ['web_extract', { selector: '#who' }], ['web_fill', { selector: '#q', text: `typed-${who}` }],
    ['web_type', { selector: '#q', text: '!' }], ['web_click', { selector: '#go' }], ['web_hover', { selector: '#go' }],
    ['web_keypress', { keys: ['Tab'] }], ['web_select', { selector: '#sel', value: 'y' }], ['web_scroll', { by: 50 }],
    ['web_wait', { selector: '#who' }], ['web_find_by_text', { text: who }], ['web_query_elements', {}],
    ['web_page_content', {}], ['web_snapshot', {}], ['web_console', {}], ['web_tabs', {}],
    ['web_cookies_set', { cookies: [{ name: `set_${who}`, value: who, url: own }] }], ['web_cookies_get', {}],
    ['web_consent_handle', { policy: 'reject' }], ['web_screenshot', { path: `shot-${who}.png` }],
    ['web_pdf', { path: `doc-${who}.pdf` }], ['web_download_page', { path: `page-${who}.html` }],
    ['web_upload', { selector: '#file', files: [`up-${who}.txt`] }], ['web_fill_form', { fields: { q: `form-${who}` } }],
    ['web_navigate', { url: own }], ['web_plan_export', {}],
  ];
}

beforeAll(async () => {
  site = await serve({
    '/p': (req, res) => send(res, page(new URL(req.url ?? '/', 'http://x').searchParams.get('m') ?? '?')),
    '/ordered': (_q, res) => send(res, html('<h1>Ordered</h1>')),
  });
  dir = tempDir('webcap-two-');
  for (const who of ['a', 'b']) writeFileSync(join(dir, `up-${who}.txt`), `upload of ${who}`);
  const config = testConfig({ dir, browser: { domains_allowlist: Object.values(HOSTS), idle_timeout_s: 300, default_timeout_ms: 60_000 }, network: { resolve: { [HOSTS.a]: '127.0.0.1', [HOSTS.b]: '127.0.0.1' } }, consent: { non_interactive: 'deny', approval_ttl_s: 0 } });
  chainPath = config.chain.path;
  mcp = await startMcpHttp({ listen: '127.0.0.1:0', config, env: { WEBCAP_MCP_TOKEN: TOKEN } });
});
afterAll(async () => {
  await mcp?.close();
  await site?.close();
});

describe('two MCP clients over HTTP, at once', { timeout: 300_000 }, () => {
  it('never touch each other\'s pages, cookies, approvals or exports', async () => {
    const clients = await Promise.all([connect('a'), connect('b')]);
    const opened: Record<Who, string> = { a: '', b: '' };
    await Promise.all(clients.map(async (c) => {
      const r = await call(c, 'web_open', { url: site.url(HOSTS[c.name], `/p?m=${c.name}`) });
      expect(codeOf(r)).toBeUndefined();
      opened[c.name] = (r.structuredContent as { session: string }).session;
    }));
    const other = (w: Who): Who => (w === 'a' ? 'b' : 'a');

    // Both clients run every step at once: without a session, with their own, and with the other's.
    const failures: string[] = [];
    await Promise.all(clients.map(async (c) => {
      const theirs = other(c.name);
      for (const [tool, args] of steps(c.name)) {
        for (const session of [undefined, opened[c.name]]) {
          const r = await call(c, tool, session ? { ...args, session } : args);
          const text = JSON.stringify(r);
          if (codeOf(r) === 'session_not_found') failures.push(`${c.name} ${tool} ${session ?? '(none)'}: session_not_found`);
          // Nothing of the other client's page (host, marker, cookie) ever reaches this client.
          if (text.includes(HOSTS[theirs]) || text.includes(`typed-${theirs}`) || text.includes(`set_${theirs}`)) failures.push(`${c.name} ${tool}: saw ${theirs}'s page`);
        }
        const cross = await call(c, tool, { ...args, session: opened[theirs] });
        if (codeOf(cross) !== 'session_not_found') failures.push(`${c.name} ${tool} on ${theirs}'s session: ${codeOf(cross) ?? 'succeeded'}`);
      }
    }));
    expect(failures).toEqual([]);

    // Each page holds only its own client's typing; each client's cookies are its own.
    for (const c of clients) {
      const out = await call(c, 'web_extract', { selector: '#q' });
      expect(JSON.stringify(out.structuredContent)).not.toContain(`typed-${other(c.name)}`);
      const cookies = JSON.stringify((await call(c, 'web_cookies_get', {})).structuredContent);
      expect(cookies).toContain(`set_${c.name}`);
      expect(cookies).not.toContain(`set_${other(c.name)}`);
    }

    // Approvals: a POST submit asks the client whose page it is, and only that one.
    await Promise.all(clients.map(async (c) => { expect(codeOf(await call(c, 'web_click', { selector: '#buy' }))).toBeUndefined(); }));
    for (const c of clients) {
      expect(c.asked.length).toBeGreaterThan(0);
      for (const q of c.asked) expect(JSON.stringify(q)).not.toContain(HOSTS[other(c.name)]);
    }

    // Exports: each client's plan holds only its own calls.
    for (const c of clients) {
      const plan = String((await call(c, 'web_plan_export', {})).structuredContent?.plan ?? '');
      expect(plan).toContain(HOSTS[c.name]);
      expect(plan).not.toContain(HOSTS[other(c.name)]);
    }

    // The chain agrees: every call a client made names one of its own sessions (or none).
    const bySession = new Map<string, string>();
    for (const c of clients) bySession.set(opened[c.name], c.transport.sessionId!);
    const sessionCalls = readEntries(chainPath).filter((x) => x.kind === 'call' && x.via?.mcp_session && x.session && bySession.has(x.session) && !x.error);
    expect(sessionCalls.length).toBeGreaterThanOrEqual(2 * clients.length);
    for (const e of sessionCalls) {
      expect([e.capability, bySession.get(e.session!)]).toEqual([e.capability, e.via!.mcp_session]);
    }
    expect(verifyChain(chainPath).ok).toBe(true);
    for (const c of clients) { await c.transport.terminateSession(); await c.client.close(); }
  });
});

describe('remembered approvals over HTTP ([consent] approval_ttl_s > 0)', { timeout: 300_000 }, () => {
  let remembering: McpHttpServer;
  beforeAll(async () => {
    const d = tempDir('webcap-two-ttl-');
    const config = testConfig({ dir: d, browser: { domains_allowlist: Object.values(HOSTS), idle_timeout_s: 300, default_timeout_ms: 60_000 }, network: { resolve: { [HOSTS.a]: '127.0.0.1', [HOSTS.b]: '127.0.0.1' } }, consent: { non_interactive: 'deny', approval_ttl_s: 600 } });
    remembering = await startMcpHttp({ listen: '127.0.0.1:0', config, env: { WEBCAP_MCP_TOKEN: TOKEN } });
  });
  afterAll(async () => { await remembering?.close(); });

  it('one client\'s remembered yes covers its own next submit, never the other client\'s', async () => {
    const saved = mcp;
    mcp = remembering; // connect() talks to `mcp`
    try {
      const [a, b] = await Promise.all([connect('a'), connect('b')]);
      const same = site.url(HOSTS.a, '/p?m=shared');
      const submit = async (c: Connected) => {
        expect(codeOf(await call(c, 'web_navigate', { url: same }))).toBeUndefined();
        expect(codeOf(await call(c, 'web_click', { selector: '#buy' }))).toBeUndefined();
      };
      for (const c of [a, b]) expect(codeOf(await call(c, 'web_open', { url: same }))).toBeUndefined();
      await submit(a);
      const askedA = a.asked.length;
      expect(askedA).toBeGreaterThan(0);
      await submit(a);
      expect(a.asked.length).toBe(askedA);      // remembered for A
      await submit(b);
      expect(b.asked.length).toBeGreaterThan(0); // A's yes does not answer for B
      for (const c of [a, b]) { await c.transport.terminateSession(); await c.client.close(); }
    } finally {
      mcp = saved;
    }
  });
});
