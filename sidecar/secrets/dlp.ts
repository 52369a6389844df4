// Data-loss prevention at the effect: a request that carries a secret this
// sidecar typed, in any form the redactor knows (book.ts), to an origin the
// secret is not bound to is refused, whichever page sent it and however it
// is allowlisted. The network guard calls these for routed requests, the
// guard proxy's plain-http traffic and each websocket message.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { BrowserContext, Request, WebSocketRoute } from 'playwright';
import { refText, requestOrigin, type SecretRef } from '../../manifests/secrets/refs.js';
import type { SecretBook } from './book.js';

export interface Leak { ref: SecretRef; origin: string; reason: string }

function leakReason(ref: SecretRef, origin: string): Leak {
  return { ref, origin, reason: `secret_origin: the request carries ${refText(ref)}, which is not bound to ${origin}` };
}

/** A check that failed refuses the request: a bug must not become an open door. */
function failClosed(origin: string, err: unknown): Leak {
  return { ref: { kind: 'secret', name: '(unknown)' }, origin, reason: `secret_origin: the secret check failed (${(err as Error)?.message ?? err}); refused` };
}

function checked(origin: string, look: () => SecretRef | undefined): Leak | undefined {
  try {
    const ref = look();
    return ref && leakReason(ref, origin);
  } catch (err) {
    return failClosed(origin, err);
  }
}

const headerText = (headers: Record<string, string | string[] | undefined>) =>
  Object.entries(headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v ?? ''}`).join('\n');

/** A routed request: its URL, headers, the cookies the browser will add for it (https), and its body. */
export async function leakInRequest(book: SecretBook | undefined, req: Request, context: BrowserContext): Promise<Leak | undefined> {
  if (!book || book.size === 0) return undefined;
  const url = req.url();
  const origin = requestOrigin(url);
  try {
    return await lookInRequest(book, req, context, url, origin);
  } catch (err) {
    return failClosed(origin, err);
  }
}

async function lookInRequest(book: SecretBook, req: Request, context: BrowserContext, url: string, origin: string): Promise<Leak | undefined> {
  // headers(), not allHeaders(): the latter waits for the network stack's report and costs a round trip per
  // request. Cookies are added later by the browser: over plain http the guard proxy sees them in the Cookie
  // header; over https only the tunnel shows, so the browser's cookies for the URL are looked at here.
  const headers = req.headers();
  const cookies = url.startsWith('https:') ? (await context.cookies(url).catch(() => [])).map((c) => `${c.name}=${c.value}`).join('; ') : '';
  return checked(origin, () => book.leakIn(origin, [url, headerText(headers), cookies, req.postDataBuffer()]));
}

/** What the guard proxy sees of a plain-http request (the body read whole first). */
export function leakInProxied(book: SecretBook | undefined, url: string, headers: IncomingHttpHeaders, body: Buffer | undefined): Leak | undefined {
  if (!book || book.size === 0) return undefined;
  const origin = requestOrigin(url);
  return checked(origin, () => book.leakIn(origin, [url, headerText(headers), body]));
}

/** One websocket message from the page. */
export function leakInMessage(book: SecretBook | undefined, url: string, message: string | Buffer): Leak | undefined {
  if (!book || book.size === 0) return undefined;
  const origin = requestOrigin(url);
  return checked(origin, () => book.leakIn(origin, [message]));
}

/** Passes each page → server message on unless it carries a secret off its origins; then both ends are closed. */
export function guardMessages(ws: WebSocketRoute, server: WebSocketRoute, book: SecretBook, onLeak: (leak: Leak) => void): void {
  ws.onMessage((message) => {
    const found = leakInMessage(book, ws.url(), typeof message === 'string' ? message : Buffer.from(message));
    if (!found) { server.send(message); return; }
    onLeak(found);
    void ws.close({ code: 1008, reason: 'blocked by webcap' }).catch(() => undefined);
    void server.close({ code: 1008, reason: 'blocked by webcap' }).catch(() => undefined);
  });
}

/** A plain-http request body, read whole (only while secrets are known, so the guard can look inside). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
