// The provider state in Redis (<prefix>search:provider-state), shared by every
// host. An update reads, changes and writes the JSON under a short lock
// (SET NX PX, released only by its holder), so two hosts never both spend the
// last request of a quota. A lock not won within LOCK_WAIT_MS counts as the
// store being unavailable (the request is refused, never let through).
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../store/redis-connection.js';
import { StoreUnavailable } from '../store/types.js';
import type { StateBackend, StateFile } from './provider-state.js';

const KEY = 'search:provider-state';
const LOCK_TTL_MS = 2000;
const LOCK_WAIT_MS = 2000;
const RELEASE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

type Release = (keys: 1, key: string, token: string) => Promise<number>;

export class RedisStateBackend implements StateBackend {
  constructor(private readonly redis: RedisConnection) {
    redis.define('webcapRelease', RELEASE_LUA);
  }

  async update<T>(change: (s: StateFile) => T): Promise<T> {
    const token = randomUUID();
    const deadline = Date.now() + LOCK_WAIT_MS;
    while ((await this.redis.run((c) => c.set(`${KEY}:lock`, token, 'PX', LOCK_TTL_MS, 'NX'))) !== 'OK') {
      if (Date.now() > deadline) throw new StoreUnavailable(`the provider-state lock was not free within ${LOCK_WAIT_MS} ms`);
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
    }
    try {
      const s = await this.read();
      const out = change(s);
      await this.redis.run((c) => c.set(KEY, JSON.stringify(s)));
      return out;
    } finally {
      await this.redis.run((c) => (c as unknown as { webcapRelease: Release }).webcapRelease(1, `${KEY}:lock`, token)).catch(() => undefined);
    }
  }

  async read(): Promise<StateFile> {
    const text = await this.redis.run((c) => c.get(KEY));
    try {
      const data = text ? (JSON.parse(text) as unknown) : {};
      return data && typeof data === 'object' ? (data as StateFile) : {};
    } catch {
      return {};
    }
  }
}
