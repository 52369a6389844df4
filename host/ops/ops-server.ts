// A small HTTP server for operations only: /metrics (the token when one is
// set) and /healthz (no token). The daemon serves it at [metrics] listen,
// `webcap browser-server` at --metrics; `webcap mcp --http` has both on its
// own port. Same front as MCP over HTTP: Host/Origin checks, strict bearer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenTable } from '../mcp/http-auth.js';
import { frontHandler } from '../mcp/http-front.js';
import { allowedHostnames, assertBindable, parseListen, tokenFrom } from '../mcp/http-guard.js';
import { metrics } from '../metrics/metrics.js';
import type { Health } from './health.js';

export interface OpsServer { url: string; close(): Promise<void> }

export async function startOpsServer(opts: { listen: string; tokenEnv?: string; env?: NodeJS.ProcessEnv; health: () => Promise<Health> }): Promise<OpsServer> {
  const listen = parseListen(opts.listen);
  const tokenEnv = opts.tokenEnv ?? 'WEBCAP_METRICS_TOKEN';
  const token = tokenFrom(opts.env ?? process.env, tokenEnv);
  assertBindable(listen, token, tokenEnv);
  const server = createServer(frontHandler({
    hosts: allowedHostnames(listen.host),
    tokens: token ? new TokenTable([{ name: '', token }]) : undefined,
    health: opts.health,
    metrics: async () => ({ contentType: metrics.contentType, text: await metrics.text() }),
  }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => { server.off('error', reject); resolve(); });
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const shown = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${shown}:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
