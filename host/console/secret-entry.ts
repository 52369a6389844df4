// The console's page for entering a secret a call needs (the person types it
// here, never through the MCP client or the model). It is served behind the
// console's own checks (token, Host/Origin, CSP: server.ts runs them first):
//   GET  /s/ID          the page (its token traded for the console cookie)
//   GET  /s/ID/about    name, kind, proposed origins, who asked (no value: there is none to show)
//   POST /s/ID          {value, origins}: sealed into the vault, the waiting call goes on
//   POST /s/ID/cancel   the call fails with "not in the vault"
// No answer ever carries the value back, and no error quotes it.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { toWebcapError } from '../../manifests/errors.js';
import { projectRoot } from '../../manifests/load.js';
import type { SecretDesk } from './secret-desk.js';
import { readJson, reply, send } from './http-io.js';

const MAX_ORIGINS = 16;
const ROUTE = /^\/s\/([0-9a-f]{32})(\/about|\/cancel)?$/;
let files: { html: Buffer; js: Buffer } | undefined;

/** Whether this path is the entry page's (then `serveSecretEntry` answers it). */
export const isSecretEntryPath = (path: string) => path === '/secret-entry.js' || ROUTE.test(path);

/** `cookie`: what the page's GET sets (the console's, or the one-page scope of a link). */
export async function serveSecretEntry(desk: SecretDesk, req: IncomingMessage, res: ServerResponse, path: string, cookie: string): Promise<void> {
  const dir = join(projectRoot(), 'host', 'console', 'page');
  files ??= { html: readFileSync(join(dir, 'secret-entry.html')), js: readFileSync(join(dir, 'secret-entry.js')) };
  if (req.method === 'GET' && path === '/secret-entry.js') return send(res, 200, 'text/javascript; charset=utf-8', files.js);
  const m = ROUTE.exec(path)!;
  const [id, action] = [m[1], m[2]];
  if (req.method === 'GET' && !action) {
    res.setHeader('set-cookie', cookie);
    return send(res, 200, 'text/html; charset=utf-8', files.html);
  }
  if (req.method === 'GET' && action === '/about') {
    const view = desk.view(id);
    return view ? reply(res, 200, view) : reply(res, 404, { error: 'no secret is waiting under this address (it was entered, cancelled or timed out)' });
  }
  if (req.method !== 'POST') return reply(res, 405, { error: 'GET the page, POST the entry' });
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return reply(res, 415, { error: 'send JSON (content-type: application/json)' });
  const body = await readJson(req);
  if (action === '/cancel') return desk.cancel(id) ? reply(res, 200, { cancelled: true }) : notOpen(res);
  if (action) return reply(res, 404, { error: 'not found' });
  const { value, origins } = body ?? {};
  if (typeof value !== 'string' || !Array.isArray(origins) || origins.length > MAX_ORIGINS || !origins.every((o) => typeof o === 'string')) {
    return reply(res, 400, { error: `want {value: string, origins: [string, …]} (at most ${MAX_ORIGINS} origins, 16 KiB)` });
  }
  const view = desk.view(id);
  if (!view) return notOpen(res);
  try {
    if (!desk.enter(id, value, origins as string[])) return notOpen(res);
  } catch (err) {
    // The vault's reasons name the secret, an origin or a rule; never the value.
    return reply(res, 400, { error: toWebcapError(err).message });
  }
  return reply(res, 200, { stored: true, name: view.name });
}

function notOpen(res: ServerResponse): void {
  reply(res, 409, { error: 'no secret is waiting under this address (it was entered, cancelled or timed out)' });
}

