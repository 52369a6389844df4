// The store a host uses, chosen once from [store]: without a url the embedded
// store (one host), with one Redis (many hosts). One store per settings in a
// process, shared by the governance and the host-side capabilities; the
// governance holds a reference and the last close() disconnects.
import { WebcapError } from '../../manifests/errors.js';
import type { WebcapConfig } from '../config/types.js';
import { embeddedStore } from './embedded.js';
import { redisStore } from './redis.js';
import type { GovernanceStore } from './types.js';

export { StoreUnavailable, type GovernanceStore, type SharedValues, type StoreEvent } from './types.js';

const stores = new Map<string, { store: GovernanceStore; users: number }>();

function idOf(config: Pick<WebcapConfig, 'store'>): string {
  const { url, prefix, password_env } = config.store;
  return url ? JSON.stringify([url, prefix, password_env ?? null]) : 'embedded';
}

function create(config: Pick<WebcapConfig, 'store'>): GovernanceStore {
  const { url, prefix, password_env: passwordEnv } = config.store;
  if (!url) return embeddedStore();
  if (!/^rediss?:\/\//.test(url)) throw new WebcapError('invalid_params', `[store] url must start with redis:// or rediss://, got "${url.split('@').pop()}"`, { field: 'store.url' });
  let password: string | undefined;
  if (passwordEnv) {
    password = process.env[passwordEnv];
    if (!password) throw new WebcapError('invalid_params', `[store] password_env names ${passwordEnv}, which is not set`, { field: 'store.password_env' });
  }
  return redisStore({ url, prefix, password });
}

/** The process's store for these settings (created on first use). */
export function storeFor(config: Pick<WebcapConfig, 'store'>): GovernanceStore {
  const id = idOf(config);
  let entry = stores.get(id);
  if (!entry) stores.set(id, (entry = { store: create(config), users: 0 }));
  return entry.store;
}

/** storeFor() plus a reference; give it back with the returned release(). */
export function acquireStore(config: Pick<WebcapConfig, 'store'>): { store: GovernanceStore; release: () => Promise<void> } {
  const store = storeFor(config);
  const id = idOf(config);
  stores.get(id)!.users += 1;
  let released = false;
  return {
    store,
    async release() {
      if (released) return;
      released = true;
      const entry = stores.get(id);
      if (!entry || entry.store !== store || --entry.users > 0) return;
      stores.delete(id);
      await store.close();
    },
  };
}
