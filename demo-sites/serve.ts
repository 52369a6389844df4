// Serves the demo sites on loopback: plain HTTP for the .test host names and
// HTTPS (a self-signed certificate made for them, in tls/) for the host names
// the seed plans use verbatim. Callers route names here with [network] resolve,
// whose values carry the port (so no plan has to).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { bookingRoutes } from './booking-site.js';
import { mapsRoutes } from './maps-site.js';
import { page, send, type Route } from './page.js';

export const MAPS_HOSTS = ['maps.demo.test', 'www.google.com'];
export const BOOKING_HOSTS = ['booking.demo.test', 'www.thefork.com'];

export interface DemoSites {
  /** A `[network] resolve` table sending every demo host name to these servers. */
  resolve: Record<string, string>;
  /** host + path of every request served, in order (always empty with `recordHits: false`). */
  hits: string[];
  close(): Promise<void>;
}

function routeFor(routes: Record<string, Route>, path: string): Route | undefined {
  if (routes[path]) return routes[path];
  const prefix = Object.keys(routes).find((k) => k.endsWith('/*') && path.startsWith(k.slice(0, -1)));
  return prefix ? routes[prefix] : undefined;
}

/** `hits` is null when nothing reads it (`webcap demo --serve` runs for days). */
function handler(hits: string[] | null): http.RequestListener {
  return async (req, res) => {
    // Everything inside the try: a throw in an async listener is an unhandled
    // rejection, which ends the whole process (a bad Host header did).
    try {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://${host}`);
      } catch {
        return send(res, 'bad request: invalid Host header or path', 400, 'text/plain');
      }
      hits?.push(`${host}${url.pathname}${url.search}`);
      if (url.pathname === '/robots.txt') return send(res, 'User-agent: *\nAllow: /\n', 200, 'text/plain');
      const routes = MAPS_HOSTS.includes(host) ? mapsRoutes : BOOKING_HOSTS.includes(host) ? bookingRoutes : undefined;
      const route = routes && routeFor(routes, url.pathname);
      if (!route) return send(res, page('Not found', '<h1>Not found</h1>'), 404);
      await route(req, res, url);
    } catch (err) {
      if (res.headersSent) res.destroy();
      else send(res, `demo site error: ${(err as Error).message}`, 500, 'text/plain');
    }
  };
}

async function listen(server: http.Server, port: number): Promise<number> {
  await new Promise<void>((done, fail) => server.once('error', fail).listen(port, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server): () => Promise<void> {
  const open = new Set<Socket>();
  server.on('connection', (s) => { open.add(s); s.on('close', () => open.delete(s)); });
  return () => new Promise<void>((done) => {
    for (const s of open) s.destroy();
    server.close(() => done());
  });
}

export interface DemoSitesOptions {
  /** Ports 0 (the default) mean "any free port"; `webcap demo --serve` asks for fixed ones. */
  http?: number;
  https?: number;
  /** Keep `hits` (default true); a server left running for good turns it off so memory stays flat. */
  recordHits?: boolean;
}

export async function startDemoSites(options: DemoSitesOptions = {}): Promise<DemoSites> {
  const hits: string[] = [];
  const recorded = options.recordHits === false ? null : hits;
  const tls = join(projectRoot(), 'demo-sites', 'tls');
  const plain = http.createServer(handler(recorded));
  const secure = https.createServer({ key: readFileSync(join(tls, 'demo-key.pem')), cert: readFileSync(join(tls, 'demo-cert.pem')) }, handler(recorded));
  const closers = [closer(plain), closer(secure)];
  const [httpPort, httpsPort] = [await listen(plain, options.http ?? 0), await listen(secure, options.https ?? 0)];
  const resolve: Record<string, string> = {};
  for (const h of ['maps.demo.test', 'booking.demo.test']) resolve[h] = `127.0.0.1:${httpPort}`;
  for (const h of ['www.google.com', 'www.thefork.com']) resolve[h] = `127.0.0.1:${httpsPort}`;
  return { resolve, hits, close: async () => { await Promise.all(closers.map((c) => c())); } };
}
