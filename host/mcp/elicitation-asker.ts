// Consent over MCP: the question goes to the person at the client through
// elicitation (a small form with one "approve" checkbox). A client that did not
// advertise elicitation gets the configured non_interactive answer instead.
// Only an explicit accept with approve = true approves: decline, cancel, a
// timeout or a broken client all mean "no", consent is never assumed.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { Asker, ConsentQuestion } from '../consent/asker.js';
import { plain, plainDetails } from '../consent/text.js';

/** A person needs time to read; the sidecar's own timeout still bounds a sensitive step. */
export const ELICITATION_TIMEOUT_MS = 10 * 60 * 1000;

export function canElicit(server: Pick<Server, 'getClientCapabilities'>): boolean {
  const e = server.getClientCapabilities()?.elicitation;
  // An empty object means form mode (the SDK normalises it to {form: {}}); url-only clients cannot show a form.
  return !!e && (!!e.form || !e.url);
}

export function elicitationAsker(server: Pick<Server, 'getClientCapabilities' | 'elicitInput'>, fallback: Asker, timeoutMs = ELICITATION_TIMEOUT_MS): Asker {
  return async function elicit(q) {
    if (!canElicit(server)) return fallback(q);
    try {
      const reply = await server.elicitInput(formFor(q), { timeout: timeoutMs });
      const content = reply.action === 'accept' ? reply.content ?? {} : {};
      const approved = content.approve === true;
      const answer = typeof content.answer === 'string' && content.answer.trim() ? plain(content.answer, 2000) : undefined;
      return answer === undefined ? { approved } : { approved, answer };
    } catch {
      return { approved: false };
    }
  };
}

export function formFor(q: ConsentQuestion): ElicitRequestFormParams {
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
