// A host configured for tests: fixture host names resolved to loopback, a
// temporary workspace and chain, robots off unless a test turns it on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type HostOptions } from '../../host/host.js';

export function tempDir(prefix = 'webcap-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

type Section = Record<string, unknown>;

export function testConfig(overrides: { browser?: Section; network?: Section; consent?: Section; budgets?: Section; robots?: Section; dir?: string } = {}) {
  const dir = overrides.dir ?? tempDir();
  return {
    capabilities: {
      browser: {
        domains_allowlist: ['*.test'],
        respect_robots: false,
        max_actions_per_minute: 10_000,
        default_timeout_ms: 30_000, // the product default: a busy machine must not turn a slow answer into a failure
        viewport_width: 1280,
        viewport_height: 800,
        ...overrides.browser,
      },
    },
    network: { resolve: {}, allow_private: ['127.0.0.1'], ...overrides.network },
    consent: { non_interactive: 'approve', ...overrides.consent },
    budgets: { ...overrides.budgets },
    robots: { ...overrides.robots },
    chain: { path: join(dir, 'chain.jsonl') },
    workspace: { path: dir },
    logging: { level: 'info', file: join(dir, 'webcap.log') },
  };
}

export function testHost(config: ReturnType<typeof testConfig>, options: Omit<HostOptions, 'config'> = {}) {
  return createHost({ ...options, config });
}
