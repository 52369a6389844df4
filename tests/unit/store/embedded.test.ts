// Without [store] url nothing is shared beyond what one host kept before.
import { expect, it } from 'vitest';
import { loadConfig } from '../../../host/config/load.js';
import { storeFor } from '../../../host/store/index.js';
import { WebcapError } from '../../../manifests/errors.js';
import { tempDir } from '../../helpers/host.js';

it('the embedded store: approvals per host, robots left to the host\'s own cache, results on disk', async () => {
  const store = storeFor(loadConfig({}));
  expect(store.kind).toBe('embedded');
  const [a, b] = [store.values('approvals'), store.values('approvals')];
  await a.set('approval:x', '1', 60_000);
  expect(await a.get('approval:x')).toBe('1');
  expect(await b.get('approval:x')).toBeUndefined(); // two hosts in one process do not share approvals
  const robots = store.values('robots');
  await robots.set('robots:http://a.test', '{}', 60_000);
  expect(await robots.get('robots:http://a.test')).toBeUndefined();
  const dir = tempDir();
  expect(store.resultCache(loadConfig({ workspace: { path: dir } }))).toMatchObject({ dir: `${dir}/cache` });
});

it('[store] url must be redis:// or rediss://, and password_env must be set', () => {
  expect(() => storeFor(loadConfig({ store: { url: 'http://127.0.0.1:6379' } }))).toThrow(WebcapError);
  expect(() => storeFor(loadConfig({ store: { url: 'redis://127.0.0.1:1/0', password_env: 'WEBCAP_TEST_NO_SUCH_VAR' } }))).toThrow(/WEBCAP_TEST_NO_SUCH_VAR, which is not set/);
  expect(() => loadConfig({ store: { host: 'x' } })).toThrow(/unknown key "store.host"/);
  expect(loadConfig({}).store).toEqual({ prefix: 'webcap:' });
});
