// The shared-store tests never skip silently: without redis-server they fail
// with a sentence that says what to install.
import { expect, it } from 'vitest';
import { REDIS_MISSING, redisServerPath } from '../../helpers/redis-server.js';

it('names the package to install when redis-server is not on PATH', () => {
  expect(() => redisServerPath({ PATH: '/nonexistent' })).toThrow(REDIS_MISSING);
  expect(REDIS_MISSING).toMatch(/install Debian's redis-server package/);
  expect(redisServerPath()).toMatch(/redis-server$/); // and finds the installed one
});
