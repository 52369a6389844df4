// The console over HTTP (node:http): one page, one script and one stylesheet
// from the package (nothing from a CDN), the state as server-sent events, and
// three actions (answer, stop, and the pictures of questions). Every request
// passes the Host/Origin check and the token first; a refused one changes
// nothing. The page itself builds its DOM with textContent, and the CSP
// forbids inline script.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { projectRoot } from '../../manifests/load.js';
import { consoleAccess, COOKIE, hostAndOriginOk, scopeCheck, scopedCookie, tokenCheck, type Scope } from './guard.js';
import { questionOnly, type StateView } from './scoped.js';
import { withoutToken, type ConsoleHub } from './hub.js';
import { handleAction } from './actions.js';
import { isSecretEntryPath, serveSecretEntry } from './secret-entry.js';
import { reply, send } from './http-io.js';

export interface ConsoleOptions {
  /** HOST:PORT, default 127.0.0.1:0 (a free port on loopback). */
  listen?: string;
  /** Environment variable holding the token; required for a non-loopback listen. */
  tokenEnv?: string;
  env?: NodeJS.ProcessEnv;
  /** Where to say that a question waits for the console alone (default: a line on stderr). */
  onWaiting?(url: string): void;
}

export interface ConsoleServer {
  /** http://HOST:PORT/?token=… (printed once; never written to the chain or logs). */
  url: string;
  /** The address and port it listens on (the network guard refuses them to every page). */
  address: { host: string; port: number };
  close(): Promise<void>;
}

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const ASSETS: Record<string, [file: string, type: string]> = {
  '/console.js': ['console.js', 'text/javascript; charset=utf-8'],
  '/console.css': ['console.css', 'text/css; charset=utf-8'],
  '/handoff.js': ['handoff.js', 'text/javascript; charset=utf-8'],
};

export async function startConsole(hub: ConsoleHub, options: ConsoleOptions = {}): Promise<ConsoleServer> {
  const access = consoleAccess(options.listen ?? '127.0.0.1:0', options.tokenEnv, options.env);
  const dir = join(projectRoot(), 'host', 'console', 'page');
  const files = new Map(Object.entries({ ...Object.fromEntries(Object.entries(ASSETS).map(([p, [f]]) => [p, f])), '/': 'index.html' })
    .map(([path, file]) => [path, readFileSync(join(dir, file))]));
  const viewers = new Map<ServerResponse, StateView>();
  const fullCookie = `${COOKIE}=${encodeURIComponent(access.token)}; HttpOnly; SameSite=Strict; Path=/`;
  const streams = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => { if (!res.headersSent) reply(res, 500, { error: 'internal error' }); else res.destroy(); });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('content-security-policy', CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');   // the token is in the URL
    res.setHeader('cache-control', 'no-store');
    if (!hostAndOriginOk(req, access.hosts)) return reply(res, 403, { error: 'Host or Origin not allowed' });
    const auth = tokenCheck(req, access.token);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (auth !== 'ok') {
      // A link sent to an MCP client opens its one page, never the console (scoped.ts).
      const scope = scopeCheck(req, access.token);
      if (scope) return serveScoped(scope, req, res, path);
      return reply(res, auth === 'missing' ? 401 : 403, { error: auth === 'missing' ? 'the console needs its token (the URL printed at start)' : 'wrong token' });
    }
    if (req.method === 'GET' && (path === '/' || /^\/q\/[0-9a-f]{32}$/.test(path))) {
      // The token becomes a cookie, so the page's own requests need not carry it in their URLs.
      res.setHeader('set-cookie', fullCookie);
      return send(res, 200, 'text/html; charset=utf-8', files.get('/')!);
    }
    if (req.method === 'GET' && ASSETS[path]) return send(res, 200, ASSETS[path][1], files.get(path)!);
    if (isSecretEntryPath(path)) return serveSecretEntry(hub.secrets, req, res, path, fullCookie);
    if (req.method === 'GET' && path === '/events') return stream(req, res, hub.state.bind(hub));
    if (req.method === 'GET' && path === '/state') return reply(res, 200, hub.state());
    const live = /^\/live\/([\w.-]{1,100}?)(\.jpg|\.mjpeg)?$/.exec(path);
    if (req.method === 'GET' && live) {
      if (!hub.sessions().some((s) => s.name === live[1])) return reply(res, 404, { error: 'no such open session' });
      if (!live[2]) return reply(res, 404, { error: 'ask for /live/SESSION.mjpeg (a stream) or /live/SESSION.jpg (the latest frame)' });
      if (live[2] === '.mjpeg') return motion(req, res, live[1]);
      const frame = hub.peek(live[1]);
      return frame ? send(res, 200, 'image/jpeg', frame) : void res.writeHead(204).end();
    }
    const picture = /^\/evidence\/([0-9a-f]{32})\.png$/.exec(path);
    if (req.method === 'GET' && picture) {
      const png = hub.board.picture(picture[1]);
      return png ? send(res, 200, 'image/png', png) : reply(res, 404, { error: 'no picture for that question' });
    }
    if (req.method === 'POST') {
      const { status, body } = await handleAction(hub, path, req);
      return reply(res, status, body);
    }
    return reply(res, 404, { error: 'not found' });
  };

  const stream = (req: IncomingMessage, res: ServerResponse, view: StateView) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    viewers.set(res, view);
    push(res, view);
    req.on('close', () => viewers.delete(res));
  };
  // What a one-question or one-secret link may reach: its page, the page's assets, and that question's state, picture and answer.
  const serveScoped = async (scope: Scope, req: IncomingMessage, res: ServerResponse, path: string) => {
    const cookie = scopedCookie(access.token, scope);
    if (scope.kind === 's') {
      if (isSecretEntryPath(path) && (path === '/secret-entry.js' || path.startsWith(`/s/${scope.id}`))) return serveSecretEntry(hub.secrets, req, res, path, cookie);
    } else {
      const only = questionOnly(hub, scope.id);
      if (req.method === 'GET' && path === `/q/${scope.id}`) {
        res.setHeader('set-cookie', cookie);
        return send(res, 200, 'text/html; charset=utf-8', files.get('/')!);
      }
      if (req.method === 'GET' && path === '/events') return stream(req, res, only);
      if (req.method === 'GET' && path === '/state') return reply(res, 200, only());
      if (req.method === 'GET' && path === `/evidence/${scope.id}.png`) {
        const png = hub.board.picture(scope.id);
        return png ? send(res, 200, 'image/png', png) : reply(res, 404, { error: 'no picture for that question' });
      }
      if (req.method === 'POST' && path === '/answer') {
        const { status, body } = await handleAction(hub, path, req, scope.id);
        return reply(res, status, body);
      }
    }
    if (req.method === 'GET' && ASSETS[path]) return send(res, 200, ASSETS[path][1], files.get(path)!);
    return reply(res, 403, { error: 'this link opens one page of the console only' });
  };
  // The live view as one long response (multipart/x-mixed-replace, which an <img> shows frame by frame):
  // frames are pushed as the screencast makes them, no polling; a viewer that falls behind skips frames.
  const motion = (req: IncomingMessage, res: ServerResponse, session: string) => {
    res.writeHead(200, { 'content-type': `multipart/x-mixed-replace; boundary=${BOUNDARY}` });
    const partHead = `--${BOUNDARY}\r\ncontent-type: image/jpeg\r\n\r\n`;
    res.write(partHead);
    streams.add(res);
    // Each frame is followed by the next part's head at once: a browser shows a part only when the next one has begun.
    const stop = hub.watch(session, (jpeg) => {
      if (res.writableLength > MAX_BEHIND) return;
      res.write(jpeg);
      res.write(`\r\n${partHead}`);
    });
    req.on('close', () => { streams.delete(res); stop(); });
  };
  const push = (res: ServerResponse, view: StateView) => res.write(`event: state\ndata: ${JSON.stringify(view())}\n\n`);
  // Changes come in bursts (a call: intent, consent, result): one push per burst.
  let pending: NodeJS.Timeout | undefined;
  const unsubscribe = hub.onChange(() => {
    if (pending || viewers.size === 0) return;
    pending = setTimeout(() => { pending = undefined; for (const [v, view] of viewers) push(v, view); }, 30);
  });

  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(access.listen.port, access.listen.host, () => resolve()));
  const { port } = server.address() as AddressInfo;
  const shown = access.listen.host.includes(':') ? `[${access.listen.host}]` : access.listen.host;
  const url = `http://${shown}:${port}/?token=${encodeURIComponent(access.token)}`;
  hub.serveAt(url);
  if (options.onWaiting) { const tell = options.onWaiting; hub.onWaiting = (u) => tell(withoutToken(u)); }
  let closing: Promise<void> | undefined;
  return {
    url,
    address: { host: access.listen.host, port },
    close: () => (closing ??= (async () => {
      unsubscribe();
      clearTimeout(pending);
      hub.serveAt(undefined);
      for (const v of [...viewers.keys(), ...streams]) v.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })()),
  };
}

const BOUNDARY = 'webcap-frame';
// About three frames at 1280x720: a slower viewer skips frames instead of queueing them.
const MAX_BEHIND = 512 * 1024;

