// A client's own domains_allowlist ([[mcp.clients]]) holds where the request
// leaves the browser, not only for the URLs its calls name. Client B may use
// site b only; site a is allowed by the host (and used by client A). B opens
// b's pages, which redirect, link, fetch, frame, refresh and pop up to a: the
// count of requests a's own server received from B's sessions stays 0. Client
// A, on the same host and pages, reaches a (the positive control).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';

const ENV = { ALICE_TOKEN: 'alice-token-5b21c7', BOB_TOKEN: 'bob-token-9e04aa' };
let siteA: FixtureServer;
let siteB: FixtureServer;
let mcp: McpHttpServer;
const onA = (path: string) => siteA.url('a.test', path);
const onB = (path: string) => siteB.url('b.test', path);

/** A page of b that reaches for a in every way a page can without the agent asking. */
function reachingPage(): string {
  return html(`<h1>B page</h1>
    <img src="${onA('/img.png')}">
    <iframe src="${onA('/frame')}"></iframe>
    <a id="go" href="${onA('/linked')}">go</a>
    <a id="pop" target="_blank" href="${onA('/popup')}">pop</a>
    <button id="assign" onclick="location.assign('${onA('/assigned')}')">assign</button>
    <script>
      fetch('${onA('/api')}').catch(() => undefined).finally(() => fetch('/fetch-tried'));
      navigator.sendBeacon('${onA('/beacon')}', 'x');
    </script>`);
}

beforeAll(async () => {
  siteA = await serve({ '*': (_q, res) => send(res, html('<h1>A</h1><p>site a</p>')) });
  siteB = await serve({
    '/page': (_q, res) => send(res, reachingPage()),
    '/redirect': (_q, res) => { res.writeHead(302, { location: onA('/redirected') }); res.end(); },
    '/refresh': (_q, res) => send(res, html('<h1>Refresh</h1>', `<meta http-equiv="refresh" content="0;url=${onA('/refreshed')}">`)),
    '*': (_q, res) => send(res, html('<h1>B</h1>')),
  });
  const dir = tempDir('webcap-narrowed-');
  const base = testConfig({ dir, browser: { domains_allowlist: ['*.test'], max_concurrent_sessions: 10 }, network: { resolve: { 'a.test': '127.0.0.1', 'b.test': '127.0.0.1' } } });
  mcp = await startMcpHttp({
    listen: '127.0.0.1:0', env: ENV,
    config: { ...base, mcp: { clients: [{ name: 'alice', token_env: 'ALICE_TOKEN' }, { name: 'bob', token_env: 'BOB_TOKEN', domains_allowlist: ['b.test'] }] } },
  });
});
afterAll(async () => {
  await mcp?.close();
  await siteA?.close();
  await siteB?.close();
});

async function connect(token: string): Promise<{ call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>; close(): Promise<void> }> {
  const client = new Client({ name: 'agent', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return {
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => { await transport.terminateSession(); await client.close(); },
  };
}
const codeOf = (r: CallToolResult) => {
  const first = r.content[0];
  return r.isError ? JSON.parse(first.type === 'text' ? first.text : '{}').error?.code : undefined;
};
async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !test(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!test()) throw new Error(`gave up waiting for ${what}`);
}

describe("a client's own allowlist holds at the effect", () => {
  it("client B's sessions send nothing to a site the host allows but B does not; client A's do", async () => {
    const bob = await connect(ENV.BOB_TOKEN);
    // Navigations B asks for itself are refused before the browser (the first line)...
    expect(codeOf(await bob.call('web_open', { url: onA('/direct') }))).toBe('not_allowlisted');
    // ...and what b's pages do is refused where the request leaves the browser.
    expect(codeOf(await bob.call('web_open', { url: onB('/redirect') }))).toBe('not_allowlisted');
    expect(codeOf(await bob.call('web_open', { url: onB('/page') }))).toBeUndefined();
    await until(() => siteB.hits.some((h) => h.endsWith('/fetch-tried')), "b's page to try its fetch");
    await bob.call('web_click', { selector: '#go' });
    await bob.call('web_open', { url: onB('/page') });
    await bob.call('web_click', { selector: '#pop' });
    await bob.call('web_open', { url: onB('/page') });
    await bob.call('web_click', { selector: '#assign' });
    await bob.call('web_open', { url: onB('/refresh') });
    await bob.call('web_wait', { time: 1500 });
    // A scrape reads over HTTP or renders in a context of its own: the same allowlist holds on every hop.
    expect(codeOf(await bob.call('web_scrape', { url: onB('/redirect'), render: 'never' }))).toBe('not_allowlisted');
    expect(codeOf(await bob.call('web_scrape', { url: onB('/redirect'), render: 'always' }))).toBeTruthy();
    expect(siteB.hits.filter((h) => h.endsWith('/page')).length).toBeGreaterThanOrEqual(3);
    expect(siteA.hits).toEqual([]);
    await bob.close();

    // The positive control: A, on the same host and the same pages, reaches a.
    const alice = await connect(ENV.ALICE_TOKEN);
    expect(codeOf(await alice.call('web_open', { url: onB('/page') }))).toBeUndefined();
    await until(() => ['/img.png', '/frame', '/api'].every((p) => siteA.hits.some((h) => h.endsWith(p))), "a's image, frame and fetch from A's session");
    await alice.call('web_click', { selector: '#go' });
    await until(() => siteA.hits.some((h) => h.endsWith('/linked')), 'the link A clicked');
    expect(codeOf(await alice.call('web_open', { url: onB('/redirect') }))).toBeUndefined();
    expect(siteA.hits.some((h) => h.endsWith('/redirected'))).toBe(true);
    await alice.close();
  });
});
