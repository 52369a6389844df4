// [[mcp.clients]] consent: each client's own channel narrows who may answer its
// consent questions. The host would approve when nobody can be asked
// (non_interactive = "approve"); a client set to "deny" is refused saying nobody
// was asked, one set to "console" is never asked through its own form, one set
// to "mcp_elicitation" is asked through its form only (without the form: nobody).
// Alice's approval for the shop's origin is never another client's: each
// submit that reaches the shop is counted at the shop's own server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig } from '../helpers/host.js';

const ENV = { ALICE_TOKEN: 'alice-token-31aa07', BOB_TOKEN: 'bob-token-8c1f52', CAROL_TOKEN: 'carol-token-d90e3b', DAVE_TOKEN: 'dave-token-47b6e1' };
let shop: FixtureServer;
let mcp: McpHttpServer;
let chainPath: string;
const orders = () => shop.hits.filter((h) => h.endsWith('/ordered')).length;

beforeAll(async () => {
  shop = await serve({
    '/order': (_q, res) => send(res, html('<h1>Order</h1><form action="/ordered" method="post"><input name="qty" value="1"><button id="buy" type="submit">Buy</button></form>')),
    '/ordered': (_q, res) => send(res, html('<h1>Ordered</h1>')),
  });
  const dir = tempDir('webcap-client-consent-');
  chainPath = join(dir, 'chain.jsonl');
  const base = testConfig({ dir, browser: { max_concurrent_sessions: 10 }, network: { resolve: { 'shop.test': '127.0.0.1' } }, consent: { non_interactive: 'approve', approval_ttl_s: 600 } });
  mcp = await startMcpHttp({
    listen: '127.0.0.1:0', env: ENV,
    config: { ...base, mcp: { clients: [
      { name: 'alice', token_env: 'ALICE_TOKEN' },
      { name: 'bob', token_env: 'BOB_TOKEN', consent: 'deny' },
      { name: 'carol', token_env: 'CAROL_TOKEN', consent: 'mcp_elicitation' },
      { name: 'dave', token_env: 'DAVE_TOKEN', consent: 'console' },
    ] } },
  });
});
afterAll(async () => {
  await mcp?.close();
  await shop?.close();
});

interface Connected { call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>; asked: number; close(): Promise<void> }
async function connect(token: string, answer: (() => ElicitResult) | undefined): Promise<Connected> {
  const client = new Client({ name: 'agent', version: '1' }, { capabilities: answer ? { elicitation: {} } : {} });
  const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const c: Connected = {
    asked: 0,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => { await transport.terminateSession(); await client.close(); },
  };
  if (answer) client.setRequestHandler(ElicitRequestSchema, async () => { c.asked += 1; return answer(); });
  await client.connect(transport);
  return c;
}
const yes = (): ElicitResult => ({ action: 'accept', content: { approve: true } });
const no = (): ElicitResult => ({ action: 'accept', content: { approve: false } });
function errorOf(r: CallToolResult): { code: string; message: string; details?: Record<string, unknown> } {
  expect(r.isError).toBe(true);
  const first = r.content[0];
  return JSON.parse(first.type === 'text' ? first.text : '{}').error;
}
async function buy(c: Connected): Promise<CallToolResult> {
  const opened = await c.call('web_open', { url: shop.url('shop.test', '/order') });
  expect(opened.isError).toBeFalsy();
  return c.call('web_click', { selector: '#buy' });
}

describe('[[mcp.clients]] consent narrows who may answer a client', () => {
  it("alice's approval is hers alone; deny, console and mcp_elicitation clients are refused or asked as their channel says", async () => {
    const alice = await connect(ENV.ALICE_TOKEN, yes);
    expect((await buy(alice)).isError).toBeFalsy();
    expect((await buy(alice)).isError).toBeFalsy();
    expect(alice.asked).toBe(1); // remembered for the shop's origin, for alice
    expect(orders()).toBe(2);

    // "deny": nobody is asked, not even its own willing form, though the host would approve.
    const bob = await connect(ENV.BOB_TOKEN, yes);
    const refused = errorOf(await buy(bob));
    expect(refused.code).toBe('consent_denied');
    expect(refused.message).toMatch(/nobody was asked \(the consent channel of client bob is "deny"\)/);
    expect(refused.message).not.toMatch(/open the console/);
    expect(bob.asked).toBe(0);

    // "console": its own form is never asked; with no console serving, nobody is.
    const dave = await connect(ENV.DAVE_TOKEN, yes);
    const daveRefused = errorOf(await buy(dave));
    expect(daveRefused.code).toBe('consent_denied');
    expect(daveRefused.message).toMatch(/nobody was asked/);
    expect(dave.asked).toBe(0);

    // "mcp_elicitation": asked through its form despite alice's approval; its no holds.
    const carol = await connect(ENV.CAROL_TOKEN, no);
    expect(errorOf(await buy(carol)).code).toBe('consent_denied');
    expect(carol.asked).toBe(1);
    // Without the form nobody can ask carol: the host's non_interactive "approve" does not answer for her.
    const carolNoForm = await connect(ENV.CAROL_TOKEN, undefined);
    expect(errorOf(await buy(carolNoForm)).message).toMatch(/nobody was asked/);
    expect(orders()).toBe(2);
    // Her own yes does go through.
    const carolYes = await connect(ENV.CAROL_TOKEN, yes);
    expect((await buy(carolYes)).isError).toBeFalsy();
    expect(carolYes.asked).toBe(1);
    expect(orders()).toBe(3);

    const consents = readEntries(chainPath).filter((e) => e.kind === 'consent');
    const bobs = consents.filter((e) => e.via?.client === 'bob');
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((e) => e.decision?.decision === 'denied' && (e.decision?.details as Record<string, unknown>)?.channel === 'client_deny')).toBe(true);
    for (const c of [alice, bob, dave, carol, carolNoForm, carolYes]) await c.close();
  });
});
