// Reads agent_config.toml (smol-toml), validates it against schema.ts (ajv, compiled at build) and
// resolves relative paths against the file's folder. Any unknown key or wrong
// type stops start-up with invalid_params naming the key and, when we can find
// it, its line.
import { existsSync } from 'node:fs';
import { dirname, resolve, isAbsolute } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { WebcapError } from '../../manifests/errors.js';
import { MiB, readTextSafelySync } from '../files/safe-read.js';
import { checkConfig, whereIn } from './checks.js';
// schema.ts compiled ahead of time (scripts/gen-validators.ts): no schema compile at start-up.
import { validate } from './config-validator.generated.js';
import type { WebcapConfig } from './types.js';

export type ConfigInput = string | Record<string, unknown> | undefined;

/** Finds the config: explicit path or object, else $WEBCAP_CONFIG, else ./agent_config.toml, else defaults. */
export function loadConfig(input?: ConfigInput): WebcapConfig {
  if (input && typeof input === 'object') return validateConfig(structuredClone(input), process.cwd());
  const path = input ?? process.env.WEBCAP_CONFIG ?? (existsSync('agent_config.toml') ? 'agent_config.toml' : undefined);
  if (!path) return validateConfig({}, process.cwd());
  const file = resolve(path);
  if (!existsSync(file)) throw new WebcapError('invalid_params', `config file not found: ${file}`, { path: file });
  // The user names the config (a link is theirs to choose); bounded like any file webcap reads.
  const source = readTextSafelySync(file, { what: 'config file', maxBytes: MiB, followLinks: true });
  let data: Record<string, unknown>;
  try {
    data = parse(source) as Record<string, unknown>;
  } catch (err) {
    const e = err as TomlError;
    throw new WebcapError('invalid_params', `${file}:${e.line ?? '?'}:${e.column ?? '?'}: ${e.message.split('\n')[0]}`, { path: file, line: e.line });
  }
  return validateConfig(data, dirname(file), source, file);
}

export function validateConfig(data: Record<string, unknown>, baseDir: string, source?: string, file = 'config'): WebcapConfig {
  if (!validate(data)) {
    const err = validate.errors![0];
    const extra = (err.params as { additionalProperty?: string }).additionalProperty;
    const keyPath = err.instancePath.split('/').filter(Boolean).join('.');
    const key = extra ? [keyPath, extra].filter(Boolean).join('.') : keyPath;
    const line = source ? findLine(source, extra ?? key.split('.').pop() ?? '') : undefined;
    const where = line ? `${file}:${line}: ` : `${file}: `;
    const what = extra ? `unknown key "${key}"` : `"${key}" ${err.message}`;
    throw new WebcapError('invalid_params', `${where}${what}`, { key, line });
  }
  const cfg = data as unknown as WebcapConfig;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  cfg.chain.path = abs(cfg.chain.path);
  cfg.workspace.path = abs(cfg.workspace.path);
  cfg.logging.file = abs(cfg.logging.file);
  cfg.profiles.path = cfg.profiles.path ? abs(cfg.profiles.path) : resolve(cfg.workspace.path, 'profiles');
  cfg.secrets.path = cfg.secrets.path ? abs(cfg.secrets.path) : resolve(cfg.workspace.path, 'secrets.vault');
  cfg.base_dir = baseDir;
  checkConfig(cfg, whereIn(source, file));
  const exe = process.env.WEBCAP_CHROMIUM;
  if (exe && !cfg.capabilities.browser.executable_path) cfg.capabilities.browser.executable_path = exe;
  return cfg;
}

function findLine(source: string, key: string): number | undefined {
  if (!key) return undefined;
  const lines = source.split('\n');
  const re = new RegExp(`^\\s*("?)${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1\\s*=|\\[[^\\]]*\\b${key}\\]`);
  const i = lines.findIndex((l) => re.test(l));
  return i >= 0 ? i + 1 : undefined;
}
