// Real HTTP servers on loopback for fixtures: a route table of small handlers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface FixtureServer {
  port: number;
  url(host: string, path?: string): string;
  hits: string[];
  close(): Promise<void>;
}

export function html(body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${/<h1>(.*?)<\/h1>/.exec(body)?.[1] ?? 'fixture'}</title>${head}</head><body>${body}</body></html>`;
}

export function send(res: ServerResponse, body: string, status = 200, type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/** `tls`: serve https with this key and certificate (the demo sites' self-signed pair, say). */
export async function serve(routes: Record<string, Handler>, address = '127.0.0.1', tls?: { key: Buffer; cert: Buffer }): Promise<FixtureServer> {
  const hits: string[] = [];
  const open = new Set<import('node:net').Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(`${req.headers.host}${req.url}`);
    const handler = routes[path] ?? routes['*'];
    if (!handler) return send(res, html('<h1>Not found</h1>'), 404);
    try {
      await handler(req, res);
    } catch (err) {
      send(res, String(err), 500, 'text/plain');
    }
  };
  const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle);
  server.on('connection', (s) => { open.add(s); s.on('close', () => open.delete(s)); });
  await new Promise<void>((done) => server.listen(0, address, done));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits,
    url: (host, path = '/') => `${tls ? 'https' : 'http'}://${host}:${port}${path}`,
    close: () => new Promise<void>((done) => {
      for (const s of open) s.destroy();
      server.close(() => done());
    }),
  };
}
