// What a person can do from the console: answer a pending question (Approve,
// Deny, Approve for this origin for N minutes) and Stop a session. A forged
// or repeated answer (no such pending question) is refused with 404/409 and
// changes nothing; a malformed body is 400.
import type { IncomingMessage } from 'node:http';
import { plain } from '../consent/text.js';
import type { ConsoleHub } from './hub.js';

const MAX_BODY = 16 * 1024;
const MAX_MINUTES = 24 * 60;

export async function handleAction(hub: ConsoleHub, path: string, req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { status: 415, body: { error: 'send JSON (content-type: application/json)' } };
  const body = await readJson(req);
  if (body === undefined) return { status: 400, body: { error: 'the body is not a JSON object (or is over 16 KiB)' } };
  if (path === '/answer') return answer(hub, body);
  if (path === '/stop') {
    if (typeof body.session !== 'string' || !hub.sessions().some((s) => s.name === body.session)) return { status: 404, body: { error: 'no such open session' } };
    return { status: 200, body: await hub.stop(body.session, 'console') };
  }
  return { status: 404, body: { error: 'not found' } };
}

function answer(hub: ConsoleHub, body: Record<string, unknown>): { status: number; body: unknown } {
  const { id, decision } = body;
  if (typeof id !== 'string' || !['approve', 'deny', 'approve_origin'].includes(decision as string)) {
    return { status: 400, body: { error: 'want {id, decision: "approve" | "deny" | "approve_origin", minutes?}' } };
  }
  const question = hub.board.get(id);
  if (!question) return { status: 409, body: { error: 'no such pending question (it was answered already, withdrawn, or never asked)' } };
  let remember_s: number | undefined;
  if (decision === 'approve_origin') {
    const minutes = Number(body.minutes);
    if (!question.rememberable) return { status: 400, body: { error: 'this question cannot be approved for an origin (it names none, or is a plan\'s question)' } };
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES) return { status: 400, body: { error: `minutes must be a whole number from 1 to ${MAX_MINUTES}` } };
    remember_s = minutes * 60;
  }
  const text = typeof body.answer === 'string' && body.answer.trim() ? plain(body.answer, 2000) : undefined;
  const done = hub.board.answer(id, {
    approved: decision !== 'deny', channel: 'console',
    ...(remember_s !== undefined ? { remember_s } : {}), ...(text !== undefined ? { answer: text } : {}),
  });
  return done === 'answered' ? { status: 200, body: { answered: true } } : { status: 409, body: { error: 'answered already' } };
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) { resolve(undefined); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        resolve(v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);
      } catch { resolve(undefined); }
    });
    req.on('error', () => resolve(undefined));
  });
}
