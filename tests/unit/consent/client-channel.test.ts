// [[mcp.clients]] consent through the real gate: a client's channel narrows
// who answers its questions, and a remembered approval is one client's only.
import { describe, expect, it } from 'vitest';
import type { Asker, ConsentQuestion } from '../../../host/consent/asker.js';
import { clientChannels } from '../../../host/consent/client-channel.js';
import { ConsentGate, type ConsentRecord } from '../../../host/consent/gate.js';

const consent = { non_interactive: 'approve', require: [], waive: [], approval_ttl_s: 600, gate_requests: true, timeout_s: 60 } as never;
const clients = [
  { name: 'alice', token_env: 'A' },
  { name: 'bob', token_env: 'B', consent: 'deny' as const },
  { name: 'carol', token_env: 'C', consent: 'mcp_elicitation' as const },
  { name: 'dave', token_env: 'D', consent: 'console' as const },
];
const q = (session: string): ConsentQuestion => ({ capability: 'web.click', origin: 'http://shop.test', selector: '#buy', reason: 'form_submit', question: 'Allow?', session });

function setup(clientAnswer: Awaited<ReturnType<Asker>>) {
  const asked: string[] = [];
  const records: ConsentRecord[] = [];
  // The client's own asker (MCP): the session name says which client it is.
  const clientAsker: Asker = async (question) => { asked.push(`form:${question.session}`); return clientAnswer; };
  // Stands for the console: it puts the question to the person there, who approves.
  const withConsole = (inner: Asker): Asker => async (question, ctx) => { asked.push(`console:${question.session}`); void inner(question, ctx); return { approved: true, channel: 'console' }; };
  const gate = new ConsentGate({
    asker: withConsole(clientAsker), config: consent, record: async (r) => { records.push(r); },
    ownerOf: (question) => question.session, channelOf: clientChannels(clients, clientAsker, withConsole),
  });
  return { gate, asked, records };
}

describe('client consent channels', () => {
  it('"deny" asks nobody and says so; the record shows it', async () => {
    const { gate, asked, records } = setup({ approved: true, channel: 'mcp_elicitation' });
    const a = await gate.confirm(q('bob'));
    expect(a).toMatchObject({ approved: false, nobody: true, refused_for: 'bob' });
    expect(asked).toEqual([]);
    expect(records[0]).toMatchObject({ approved: false, nobody: true, channel: 'client_deny' });
  });

  it('"console" goes to the console only, "mcp_elicitation" to the client\'s form only', async () => {
    const { gate, asked } = setup({ approved: true, channel: 'mcp_elicitation' });
    expect((await gate.confirm(q('dave'))).approved).toBe(true);
    expect((await gate.confirm(q('carol'))).approved).toBe(true);
    expect(asked).toEqual(['console:dave', 'form:carol']);
  });

  it('"mcp_elicitation" without the form is nobody, not the host\'s fixed answer', async () => {
    const { gate } = setup({ approved: true, channel: 'config' });
    expect(await gate.confirm(q('carol'))).toMatchObject({ approved: false, nobody: true });
  });

  it("one client's remembered approval is never another's", async () => {
    const { gate, asked } = setup({ approved: false, channel: 'mcp_elicitation' });
    expect((await gate.confirm(q('alice'))).approved).toBe(true); // the console approved, remembered for alice
    expect((await gate.confirm(q('alice'))).source).toBe('remembered');
    expect((await gate.confirm(q('carol'))).approved).toBe(false);
    expect((await gate.confirm(q('bob'))).approved).toBe(false);
    expect(asked).toEqual(['console:alice', 'form:alice', 'form:carol']);
  });
});
