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

export async function startRedis(): Promise<TestRedis> {
  const binary = redisServerPath();
  const dir = mkdtempSync(join(tmpdir(), 'webcap-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: TestRedis = {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
