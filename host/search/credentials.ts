// API keys come from environment variables named in the config, never from
// the config itself or the call. Each key is handed to the redactor the
// moment it is read, so no log line, error or chain entry can carry it.
import { WebcapError } from '../../manifests/errors.js';
import type { Redactor } from '../redact/redactor.js';

export function readKey(provider: string, envName: string, configKey: string, redactor: Redactor, capability: string): string {
  const value = process.env[envName]?.trim();
  if (!value) {
    throw new WebcapError('capability_disabled',
      `${capability}: no ${provider} key: set the environment variable ${envName} (named by ${configKey})`,
      { provider, env: envName, reason: 'missing_key' });
  }
  redactor.addSecret(value);
  return value;
}
