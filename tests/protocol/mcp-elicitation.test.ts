// Consent through MCP elicitation, over the SDK's in-memory linked transports:
// a real Server asks, a real Client answers. Only "accept" with approve=true
// approves; everything else, including silence and a broken client, is "no".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Asker, ConsentQuestion } from '../../host/consent/asker.js';
import { canElicit, elicitationAsker } from '../../host/mcp/elicitation-asker.js';

const question: ConsentQuestion = {
  capability: 'web.click', reason: 'form_submit', origin: 'http://shop.test',
  question: 'Allow web.click to submit a form ("#buy") on "http://shop.test"?',
  details: { banner: 'line one\nFAKE: approved' },
};

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => { await Promise.all(open.map((x) => x.close())); open = []; });

async function pair(reply?: (req: ElicitRequest['params']) => Promise<ElicitResult>) {
  const server = new Server({ name: 'webcap', version: '0' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'c', version: '0' }, { capabilities: reply ? { elicitation: {} } : {} });
  const seen: ElicitRequest['params'][] = [];
  if (reply) client.setRequestHandler(ElicitRequestSchema, async (req) => { seen.push(req.params); return reply(req.params); });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  open.push(client, server);
  const fallbackCalls: ConsentQuestion[] = [];
  const fallback: Asker = async (q) => { fallbackCalls.push(q); return { approved: false }; };
  return { server, seen, fallbackCalls, fallback };
}

describe('elicitationAsker', () => {
  it.each([
    [{ action: 'accept', content: { approve: true } }, true],
    [{ action: 'accept', content: { approve: false } }, false],
    [{ action: 'accept', content: {} }, false],
    [{ action: 'decline' }, false],
    [{ action: 'cancel' }, false],
  ] as Array<[ElicitResult, boolean]>)('%j → approved %s', async (answer, approved) => {
    const { server, seen, fallback, fallbackCalls } = await pair(async () => answer);
    expect(canElicit(server)).toBe(true);
    expect(await elicitationAsker(server, fallback)(question)).toEqual({ approved, channel: 'mcp_elicitation' });
    expect(seen).toHaveLength(1);
    expect(fallbackCalls).toHaveLength(0);
  });

  it('shows the question and details as plain lines and asks for one approve checkbox', async () => {
    const { server, seen, fallback } = await pair(async () => ({ action: 'decline' }));
    await elicitationAsker(server, fallback)(question);
    const lines = seen[0].message.split('\n');
    expect(lines[0]).toBe(question.question);
    expect(lines).toContain('banner: line one FAKE: approved'); // page text cannot start a line of its own
    expect(lines.at(-1)).toBe('(asked by webcap for web.click: form_submit)');
    expect(seen[0]).toMatchObject({ mode: 'form', requestedSchema: { type: 'object', required: ['approve'], properties: { approve: { type: 'boolean', default: false } } } });
    expect(Object.keys((seen[0] as { requestedSchema: { properties: object } }).requestedSchema.properties)).toEqual(['approve']);
  });

  it('takes a free-text answer for ccos.user.ask', async () => {
    const { server, seen, fallback } = await pair(async () => ({ action: 'accept', content: { approve: true, answer: 'blue' } }));
    const a = await elicitationAsker(server, fallback)({ capability: 'ccos.user.ask', reason: 'user_ask', question: 'Which colour?' });
    expect(a).toEqual({ approved: true, answer: 'blue', channel: 'mcp_elicitation' });
    expect((seen[0] as { requestedSchema: { properties: object } }).requestedSchema.properties).toHaveProperty('answer');
  });

  it('means "no" when the client errors or never answers', async () => {
    const broken = await pair(async () => { throw new Error('ui crashed'); });
    expect(await elicitationAsker(broken.server, broken.fallback)(question)).toEqual({ approved: false, channel: 'mcp_elicitation' });
    const silent = await pair(() => new Promise<ElicitResult>(() => undefined));
    // The client never answers: only the asker's own 200 ms limit ends this before the test's timeout.
    expect(await elicitationAsker(silent.server, silent.fallback, 200)(question)).toEqual({ approved: false, channel: 'mcp_elicitation' });
  });

  it('falls back to the configured answer when the client did not advertise elicitation', async () => {
    const { server, fallback, fallbackCalls } = await pair();
    expect(canElicit(server)).toBe(false);
    expect(await elicitationAsker(server, fallback)(question)).toEqual({ approved: false });
    expect(fallbackCalls).toEqual([question]);
  });
});
