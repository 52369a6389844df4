// What a person can do from the console: answer a pending question (Approve,
// Deny, Approve for this origin for N minutes) and Stop a session. A forged
// or repeated answer (no such pending question) is refused with 404/409 and
// changes nothing; a malformed body is 400.
import type { IncomingMessage } from 'node:http';
import { plain } from '../consent/text.js';
import type { PersonInput } from '../../manifests/wire.js';
import type { ConsoleHub } from './hub.js';
import { readJson } from './http-io.js';

const MAX_MINUTES = 24 * 60;

/** `onlyQuestion`: a one-question link may answer that question and do nothing else. */
export async function handleAction(hub: ConsoleHub, path: string, req: IncomingMessage, onlyQuestion?: string): Promise<{ status: number; body: unknown }> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { status: 415, body: { error: 'send JSON (content-type: application/json)' } };
  const body = await readJson(req);
  if (body === undefined) return { status: 400, body: { error: 'the body is not a JSON object (or is over 16 KiB)' } };
  if (onlyQuestion !== undefined && (path !== '/answer' || body.id !== onlyQuestion)) return { status: 403, body: { error: 'this link answers its own question only' } };
  if (path === '/answer') return answer(hub, body);
  if (path === '/input' || path === '/done') return handoffAction(hub, path, body);
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

/**
 * The person driving a handed-off session: input goes only through an open
 * hand-off's id, to that hand-off's session (the body names no session);
 * Done hands it back once.
 */
async function handoffAction(hub: ConsoleHub, path: string, body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  if (typeof body.handoff !== 'string') return { status: 400, body: { error: 'want {handoff: ID, ...}' } };
  if (path === '/done') {
    return hub.handoffs.handBack(body.handoff) === 'handed_back' ? { status: 200, body: { handed_back: true } } : { status: 409, body: { error: 'no such open hand-off (handed back already, timed out, or never started)' } };
  }
  if (!Array.isArray(body.events) || body.events.length > MAX_EVENTS || !body.events.every(isInput)) return { status: 400, body: { error: `want {handoff, events: [...]} with at most ${MAX_EVENTS} inputs (move, down, up, wheel, key, text)` } };
  const delivered = await hub.handoffs.input(body.handoff, body.events as PersonInput[]);
  return delivered === 'unknown' ? { status: 409, body: { error: 'no such open hand-off' } } : { status: 200, body: { delivered } };
}

const MAX_EVENTS = 200;

function isInput(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const v = e as Record<string, unknown>;
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  switch (v.type) {
    case 'move': case 'down': case 'up': return num(v.x) && num(v.y) && (v.button === undefined || ['left', 'middle', 'right'].includes(v.button as string));
    case 'wheel': return num(v.x) && num(v.y) && num(v.dx) && num(v.dy);
    case 'key': return typeof v.key === 'string' && v.key.length <= 40;
    case 'text': return typeof v.text === 'string' && v.text.length <= 1000;
    default: return false;
  }
}

