// One ioredis client per store, set up to fail fast rather than wait: no
// offline queue (a command while disconnected is refused at once), a command
// timeout, and reconnection in the background, so when Redis comes back the
// next call passes without a restart. Every command goes through run(), which
// turns any failure into StoreUnavailable and reports up/down transitions.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { metrics } from '../metrics/metrics.js';

// Loaded when a Redis store is made: a host on the embedded store (the default) never pays ioredis's start-up.
const load = createRequire(import.meta.url);
import { StoreUnavailable, type StoreEvent } from './types.js';

/** How long a command may take before the store counts as unavailable. */
const COMMAND_TIMEOUT_MS = 1000;

export interface RedisSettings { url: string; prefix: string; password?: string }

export class RedisConnection {
  readonly client: Redis;
  private up = true;
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private readonly scripts = new Set<string>();

  constructor(settings: RedisSettings) {
    const { Redis: Client } = load('ioredis') as typeof import('ioredis');
    this.client = new Client(settings.url, {
      keyPrefix: settings.prefix,
      ...(settings.password ? { password: settings.password } : {}),
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      // Keep trying, never more than half a second apart: recovery is noticed quickly.
      retryStrategy: (times) => Math.min(times * 50, 500),
    });
    // Without a listener ioredis prints every connection error; run() reports them instead.
    this.client.on('error', () => undefined);
  }

  onEvent(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A Lua script as a command (EVALSHA, loaded on first use). */
  define(name: string, lua: string): void {
    if (this.scripts.has(name)) return;
    this.scripts.add(name);
    this.client.defineCommand(name, { lua });
  }

  async run<T>(op: (client: Redis) => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      await this.ready();
      const value = await op(this.client);
      metrics.store((performance.now() - started) / 1000, false);
      this.mark(undefined);
      return value;
    } catch (err) {
      metrics.store((performance.now() - started) / 1000, true);
      if (err instanceof StoreUnavailable) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      this.mark(reason);
      throw new StoreUnavailable(reason);
    }
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }

  // The first commands may come while the first connection is still being made:
  // those wait for it (up to the timeout). Once it has been lost, calls fail at once.
  private async ready(): Promise<void> {
    const status = this.client.status;
    if (status === 'ready') return;
    if (status !== 'connecting' && status !== 'connect' && status !== 'wait') {
      this.mark(`redis connection ${status}`);
      throw new StoreUnavailable(`redis connection ${status}`);
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => { cleanup(); reject(new Error(`no connection to redis within ${COMMAND_TIMEOUT_MS} ms`)); }, COMMAND_TIMEOUT_MS);
      const onReady = () => { cleanup(); resolve(); };
      const cleanup = () => { clearTimeout(timer); this.client.off('ready', onReady); };
      this.client.once('ready', onReady);
    });
  }

  private mark(downReason: string | undefined): void {
    const up = downReason === undefined;
    if (up === this.up) return;
    this.up = up;
    const event: StoreEvent = up ? { kind: 'store_available' } : { kind: 'store_unavailable', reason: downReason };
    for (const l of this.listeners) l(event);
  }
}
