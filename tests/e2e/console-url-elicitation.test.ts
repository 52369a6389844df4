// An MCP client that can only do URL-mode elicitation (it declares
// `elicitation: {url: {}}`, no form): a consent question reaches it as an
// elicitation/create with mode "url" pointing at the question's page in the
// console; the client opens that URL in a browser, the person presses
// Approve there, and the call goes on. The fixture server counts the POST.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { createMcpServer } from '../../host/index.js';
import { effectRoutes, type Arrival } from '../fixtures/effect-pages.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

let site: FixtureServer;
let person: Browser;
const arrivals: Arrival[] = [];

beforeAll(async () => {
  site = await serve(effectRoutes(arrivals));
  person = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await person?.close();
  await site?.close();
});

interface Probe { page: number; root: number; rootByKey: number; otherAnswer: number; input: number; stop: number; questionsSeen: number; sessionsSeen: number; chainSeen: number; forgedKey: number }

/** What a client could do with the link it was sent, before showing it to the person: everything but its own question refused. */
async function probeWithLink(link: string): Promise<Probe> {
  const url = new URL(link);
  const page = await fetch(link);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const withCookie = (path: string, init: RequestInit = {}) => fetch(new URL(path, url.origin), { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const post = (path: string, body: unknown) => withCookie(path, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status);
  const state = await (await withCookie('/state')).json() as { questions: unknown[]; sessions: unknown[]; chain: unknown[] };
  const forged = new URL(link);
  forged.searchParams.set('key', 'A'.repeat(43));
  return {
    page: page.status,
    root: (await withCookie('/')).status,
    rootByKey: (await fetch(new URL(`/?key=${url.searchParams.get('key')}`, url.origin))).status,
    otherAnswer: await post('/answer', { id: 'f'.repeat(32), decision: 'approve' }),
    input: await post('/input', { handoff: 'x', events: [] }),
    stop: await post('/stop', { session: 's1' }),
    questionsSeen: state.questions.length, sessionsSeen: state.sessions.length, chainSeen: state.chain.length,
    forgedKey: (await fetch(forged)).status,
  };
}

describe('URL-mode elicitation', () => {
  it('sends the client to the question page in the console; the person approves there', async () => {
    const cfg = testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] }, consent: { non_interactive: 'deny' } });
    const mcp = createMcpServer({ config: cfg });
    await mcp.ready;
    await mcp.host.console();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'url-only-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    const opened: string[] = [];
    const probes: Probe[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      if (req.params.mode !== 'url') return { action: 'decline' };
      opened.push(req.params.url);
      probes.push(await probeWithLink(req.params.url));
      // The client opens the URL for its user; the user reads the question and approves.
      const page = await person.newPage();
      await page.goto(req.params.url);
      await page.getByRole('region', { name: /Allow web\.click to submit a form/ }).getByRole('button', { name: 'Approve', exact: true }).click();
      // The tab closes a little later, as a person's would; the test may already have closed the browser by then.
      void page.waitForTimeout(500).then(() => page.close()).catch(() => undefined);
      return { action: 'accept' };
    });
    await client.connect(clientSide);
    try {
      const open = (await client.callTool({ name: 'web_open', arguments: { url: site.url('shop.test', '/p/space-on-submit') } })) as CallToolResult;
      expect(open.isError).toBeFalsy();
      const click = (await client.callTool({ name: 'web_click', arguments: { selector: '#go' } })) as CallToolResult;
      expect(click.isError).toBeFalsy();
      expect(opened).toHaveLength(1);
      expect(new URL(opened[0]).pathname).toMatch(/^\/q\/[0-9a-f]{32}$/);
      // The link is not the console: no token in it, and with it the client reaches nothing but this question.
      expect(new URL(opened[0]).searchParams.has('token')).toBe(false);
      expect(probes[0]).toEqual({ page: 200, root: 403, rootByKey: 401, otherAnswer: 403, input: 403, stop: 403, questionsSeen: 1, sessionsSeen: 0, chainSeen: 0, forgedKey: 401 });
      expect(arrivals.filter((a) => a.path === '/sink/space-on-submit')).toHaveLength(1);
      const consent = readEntries(cfg.chain.path).filter((e) => e.kind === 'consent').at(-1)!;
      expect(consent.decision).toMatchObject({ decision: 'approved', details: { channel: 'console' } });
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});
