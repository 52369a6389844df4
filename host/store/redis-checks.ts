// What `webcap doctor` and /healthz ask a Redis store: does it answer, does
// it accept the admission script, does it take a write. Each goes through
// the connection's run(), so a failure is the same StoreUnavailable the
// policies see.
import { ADMIT_LUA } from '../budget/redis-admission.js';
import type { RedisConnection } from './redis-connection.js';
import type { StoreChecks } from './types.js';

export function redisChecks(redis: RedisConnection): StoreChecks {
  return {
    async ping() {
      const pong = await redis.run((c) => c.ping());
      if (pong !== 'PONG') throw new Error(`PING answered ${JSON.stringify(pong).slice(0, 40)}`);
    },
    async scriptLoads() {
      const sha = await redis.run((c) => c.script('LOAD', ADMIT_LUA) as Promise<string>);
      if (!/^[0-9a-f]{40}$/.test(String(sha))) throw new Error('SCRIPT LOAD did not answer a sha');
    },
    async writes() {
      const key = `doctor:${process.pid}:${Date.now()}`;
      await redis.run((c) => c.set(key, '1', 'PX', 5000));
      const back = await redis.run((c) => c.get(key));
      await redis.run((c) => c.del(key));
      if (back !== '1') throw new Error('a value written could not be read back');
    },
  };
}
