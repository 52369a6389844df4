// SharedValues in Redis (<prefix>val:<key>), expiry kept by Redis (PX).
import type { RedisConnection } from './redis-connection.js';
import type { SharedValues } from './types.js';

export class RedisValues implements SharedValues {
  constructor(private readonly redis: RedisConnection) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.run((c) => c.get(`val:${key}`))) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.run((c) => c.set(`val:${key}`, value, 'PX', Math.max(1, Math.round(ttlMs))));
  }

  async delete(key: string): Promise<void> {
    await this.redis.run((c) => c.del(`val:${key}`));
  }
}
