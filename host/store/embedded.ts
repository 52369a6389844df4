// The embedded store: everything in this process or its workspace, as webcap
// has always kept it. Budgets and politeness per process, robots.txt and
// approvals in memory, results in <workspace>/cache, search quotas in
// <workspace>/provider-state.json. It never becomes unavailable.
import { join } from 'node:path';
import { EmbeddedAdmission } from '../budget/admission.js';
import { DiskCache } from '../cache/store.js';
import { FileStateBackend } from '../search/provider-state-file.js';
import { MemoryValues } from './memory-values.js';
import type { GovernanceStore, SharedValues } from './types.js';

const NO_VALUES: SharedValues = { get: async () => undefined, set: async () => undefined, delete: async () => undefined };

// One DiskCache per folder and settings in the process, so its size index is scanned once.
const diskCaches = new Map<string, DiskCache>();

export function embeddedStore(): GovernanceStore {
  return {
    kind: 'embedded',
    admission: (politeness, now) => new EmbeddedAdmission(politeness, now),
    values: (use) => (use === 'approvals' ? new MemoryValues() : NO_VALUES),
    resultCache(config) {
      const { enabled, ttl_s: ttl, max_bytes: maxBytes } = config.cache;
      const dir = join(config.workspace.path, 'cache');
      const id = JSON.stringify([dir, enabled, ttl, maxBytes]);
      let cache = diskCaches.get(id);
      if (!cache) diskCaches.set(id, (cache = new DiskCache({ dir, enabled, ttlMs: ttl * 1000, maxBytes })));
      return cache;
    },
    providerState: (workspace) => new FileStateBackend(join(workspace, 'provider-state.json')),
    onEvent: () => () => undefined,
    close: async () => undefined,
  };
}
