// The configuration a bench's webcap runs with: 127.0.0.1 only (allowed, and
// allowed although private), no action budget in the way, the chain, the
// workspace and the log in the bench's own folder. As an object for
// createHost, or as a file for the CLI and `webcap mcp`, written by smol-toml,
// which quotes every path and name as TOML needs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'smol-toml';

export interface BenchConfigOptions {
  /** Files of this config are named after it (chain, log), so several can share one folder. */
  name?: string;
  /** robots.txt checked on every navigation, as by default. */
  robots?: boolean;
  /** `[mcp] after_action`; unset: the default. */
  afterAction?: 'none' | 'diff' | 'snapshot';
  /** false: no workspace of its own. */
  workspace?: boolean;
}

export function benchConfig(dir: string, { name = 'webcap', robots = false, afterAction, workspace = true }: BenchConfigOptions = {}): Record<string, unknown> {
  const chain = name === 'webcap' ? 'chain.jsonl' : `${name}-chain.jsonl`;
  return {
    capabilities: { browser: { domains_allowlist: ['127.0.0.1'], respect_robots: robots, max_actions_per_minute: 1_000_000 } },
    network: { allow_private: ['127.0.0.1'] },
    chain: { path: join(dir, chain) },
    ...(workspace ? { workspace: { path: join(dir, 'ws') } } : {}),
    logging: { level: 'warn', file: join(dir, `${name}.log`) },
    ...(afterAction ? { mcp: { after_action: afterAction } } : {}),
  };
}

/** Writes `config` as TOML to `file`; returns the file. */
export function writeConfig(file: string, config: Record<string, unknown>): string {
  writeFileSync(file, stringify(config));
  return file;
}
