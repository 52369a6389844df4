// Consent over MCP: the question goes to the person at the client through
// elicitation (a small form with one "approve" checkbox). A client that did not
// advertise form elicitation gets the configured non_interactive answer
// instead; one that advertised URL mode is sent to the question's page in the
// console when one serves (the answer then comes from there).
// Only an explicit accept with approve = true approves: decline, cancel, a
// timeout or a broken client all mean "no", consent is never assumed.
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams, ElicitRequestURLParams } from '@modelcontextprotocol/sdk/types.js';
import type { Asker, ConsentAnswer, ConsentQuestion } from '../consent/asker.js';
import { plain, plainDetails } from '../consent/text.js';
import type { UrlElicitor } from '../secrets/missing.js';

/** A person needs time to read; the sidecar's own timeout still bounds a sensitive step. */
const ELICITATION_TIMEOUT_MS = 10 * 60 * 1000;

type Client = Pick<Server, 'getClientCapabilities' | 'elicitInput'> & { elicitationDone?(id: string): void };

export function canElicit(server: Pick<Server, 'getClientCapabilities'>): boolean {
  const e = server.getClientCapabilities()?.elicitation;
  // An empty object means form mode (the SDK normalises it to {form: {}}); url-only clients cannot show a form.
  return !!e && (!!e.form || !e.url);
}

function canElicitUrl(server: Pick<Server, 'getClientCapabilities'>): boolean {
  return !!server.getClientCapabilities()?.elicitation?.url;
}

export function elicitationAsker(server: Client, fallback: Asker, timeoutMs = ELICITATION_TIMEOUT_MS): Asker {
  return async function elicit(q, ctx) {
    if (!canElicit(server)) {
      if (ctx?.questionUrl && canElicitUrl(server)) return sendToConsole(server, q, ctx.questionUrl, ctx.signal, timeoutMs);
      return fallback(q, ctx);
    }
    try {
      const reply = await server.elicitInput(formFor(q), { timeout: timeoutMs, ...(ctx?.signal ? { signal: ctx.signal } : {}) });
      const content = reply.action === 'accept' ? reply.content ?? {} : {};
      const approved = content.approve === true;
      const answer = typeof content.answer === 'string' && content.answer.trim() ? plain(content.answer, 2000) : undefined;
      return answer === undefined ? { approved, channel: 'mcp_elicitation' } : { approved, answer, channel: 'mcp_elicitation' };
    } catch {
      return { approved: false, channel: 'mcp_elicitation' };
    }
  };
}

/**
 * URL mode: the client opens the console page of this question; the person
 * answers there. This asker's own reply is never the answer ("nobody" here,
 * so the console's answer decides); when the console has answered, the client
 * is told the elicitation is complete.
 */
async function sendToConsole(server: Client, q: ConsentQuestion, url: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<ConsentAnswer> {
  const elicitationId = randomUUID();
  const params: ElicitRequestURLParams = { mode: 'url', elicitationId, url, message: `${plain(q.question, 2000)}\nAnswer in the webcap console (the page shows what would happen).` };
  signal?.addEventListener('abort', () => server.elicitationDone?.(elicitationId), { once: true });
  await server.elicitInput(params, { timeout: timeoutMs, ...(signal ? { signal } : {}) }).catch(() => undefined);
  return { approved: false, nobody: true, channel: 'mcp_url' };
}

/**
 * A page the person must use themselves (the console's secret entry): URL mode
 * only, never a form, whose answers pass through the client. The client is
 * told when the page is done; a decline, an error or a client without URL
 * mode leaves the caller to fail with its own message.
 */
export function urlElicitor(server: Client, timeoutMs = ELICITATION_TIMEOUT_MS): UrlElicitor {
  return async ({ url, message, withdraw, completed }) => {
    if (!canElicitUrl(server)) return 'unsupported';
    const elicitationId = randomUUID();
    void completed.then(() => { if (!withdraw.aborted) server.elicitationDone?.(elicitationId); });
    try {
      const reply = await server.elicitInput({ mode: 'url', elicitationId, url, message: plain(message, 2000) }, { timeout: timeoutMs, signal: withdraw });
      return reply.action === 'accept' ? 'opened' : 'declined';
    } catch {
      return withdraw.aborted ? 'opened' : 'declined';
    }
  };
}

function formFor(q: ConsentQuestion): ElicitRequestFormParams {
  const lines = [plain(q.question, 2000)];
  for (const [key, text] of Object.entries(plainDetails(q.details ?? {}))) lines.push(`${key}: ${text}`);
  lines.push(`(asked by webcap for ${plain(q.capability, 100)}: ${plain(q.reason, 40)})`);
  const properties: ElicitRequestFormParams['requestedSchema']['properties'] = {
    approve: { type: 'boolean', title: 'Approve', description: 'Allow this action', default: false },
  };
  // ccos.user.ask is a question a plan puts to the user, which may take a free-text answer.
  if (q.reason === 'user_ask') properties.answer = { type: 'string', title: 'Answer', description: 'Optional answer' };
  return { mode: 'form', message: lines.join('\n'), requestedSchema: { type: 'object', properties, required: ['approve'] } };
}
