// Which configuration a daemon serves, as one digest: the config file's path
// and contents, and the environment variables the configuration names
// (`*_env` keys: the profile key, the store password, signing and API keys)
// plus the Chromium override. A command whose digest differs from the
// daemon's is served by a daemon restarted for it, so an edited allowlist
// or an unset profile key takes effect on the next command. Values are
// hashed, never sent or kept in the clear; the digest travels only over the
// daemon's owner-only socket.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WebcapConfig } from '../config/types.js';

const ALWAYS = ['WEBCAP_CHROMIUM', 'WEBCAP_SIDECAR_ENTRY'];

/** Environment variable names the configuration reads (values of keys ending in _env, at any depth). */
export function envNamesOf(config: unknown, out = new Set<string>(ALWAYS)): Set<string> {
  if (Array.isArray(config)) config.forEach((v) => envNamesOf(v, out));
  else if (config && typeof config === 'object') {
    for (const [key, value] of Object.entries(config)) {
      if (key.endsWith('_env') && typeof value === 'string' && value) out.add(value);
      else envNamesOf(value, out);
    }
  }
  return out;
}

export function configIdentity(configFile: string | null, config: WebcapConfig, env: NodeJS.ProcessEnv = process.env): string {
  return identityOf(configFile, configContents(configFile), [...envNamesOf(config)], env);
}

export function configContents(configFile: string | null): string | null {
  if (!configFile) return null;
  try { return readFileSync(configFile, 'utf8'); } catch { return null; }
}

/**
 * The digest itself, from the names alone: the thin client (host/cli/thin-client.ts) asks the
 * daemon for the names and hashes its own file and environment, without loading the config.
 * Same contents give the same names, so the digest matches exactly when the configuration does.
 */
export function identityOf(configFile: string | null, contents: string | null, envNames: string[], env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256');
  const names = [...envNames].sort();
  hash.update(JSON.stringify([configFile, contents, names.map((n) => [n, env[n] === undefined ? null : createHash('sha256').update(env[n]!).digest('hex')])]));
  return hash.digest('hex');
}
