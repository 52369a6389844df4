// A real redis-server for a test: a free loopback port, a temp dir, no
// persistence; stop() and start() again on the same port to simulate an
// outage. Missing redis-server is a failure that says what to install, never
// a silent skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_MISSING = 'redis-server is not installed: install Debian\'s redis-server package (apt-get install redis-server, or `npm run setup` as root) to run the shared-store tests';

export function redisServerPath(env: NodeJS.ProcessEnv = process.env): string {
  const found = (spawnSync('/bin/sh', ['-c', 'command -v redis-server'], { encoding: 'utf8', env }).stdout ?? '').trim();
  if (!found) throw new Error(REDIS_MISSING);
  return found;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * With `tls`, the server speaks only TLS (rediss://), with the bundled loopback
 * certificate of the demo sites (demo-sites/tls, SAN 127.0.0.1): clients trust
 * it through NODE_EXTRA_CA_CERTS.
 */
export async function startRedis(opts: { tls?: boolean } = {}): Promise<TestRedis> {
  const binary = redisServerPath();
  const tlsDir = join(process.cwd(), 'demo-sites', 'tls');
  const listen = (port: number) => (opts.tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', join(tlsDir, 'demo-cert.pem'), '--tls-key-file', join(tlsDir, 'demo-key.pem'), '--tls-auth-clients', 'no']
    : ['--port', String(port)]);
  const dir = mkdtempSync(join(tmpdir(), 'webcap-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: TestRedis = {
    port,
    url: `${opts.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}/0`,
    async start() {
      child = spawn(binary, [...listen(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${port}: ${out}`)), 10_000);
        child!.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Ready to accept connections')) { clearTimeout(timer); resolve(); }
        });
        child!.once('exit', (code) => { clearTimeout(timer); reject(new Error(`redis-server exited (${code}): ${out}`)); });
      });
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      c.kill('SIGKILL');
      await once(c, 'exit');
    },
  };
  await redis.start();
  return redis;
}
