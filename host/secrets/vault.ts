// The credential vault: one JSON file ([secrets] path, mode 0600), one sealed
// entry per name. Each value is encrypted with AES-256-GCM under the key in
// [secrets] key_env (profiles/crypto.ts); the name, kind and origins stay in
// clear so `secrets list` needs no key, and they are the ciphertext's
// associated data, so moving a value to another name or origin breaks it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { SECRET_NAME, secretOrigin, type SecretKind } from '../../manifests/secrets/refs.js';
import type { WebcapConfig } from '../config/types.js';
import { keyFromEnv, seal, unseal, type Sealed } from '../profiles/crypto.js';
import { checkTotp } from './totp.js';

type SecretsConfig = Pick<WebcapConfig, 'secrets'>;

interface SecretSummary { name: string; kind: SecretKind; origins: string[]; created_at: string; last_used?: string }
interface Entry extends SecretSummary, Sealed {}
interface VaultFile { v: 1; entries: Record<string, Entry> }

const aadOf = (e: Pick<SecretSummary, 'name' | 'kind' | 'origins'>) => Buffer.from(JSON.stringify(['webcap-secret-v1', e.name, e.kind, e.origins]));

function secretsKey(config: SecretsConfig): Buffer {
  return keyFromEnv(config.secrets.key_env, 'secrets', 'secret', 'webcap-secrets-v1');
}

function checkSecretName(name: string): string {
  if (!SECRET_NAME.test(name)) throw new WebcapError('invalid_params', `secret name "${name}": use 1-64 letters, digits, "_", "-" or "." (not first)`, { field: 'secret' });
  return name;
}

function readVault(config: SecretsConfig): VaultFile {
  if (!existsSync(config.secrets.path)) return { v: 1, entries: {} };
  try {
    const parsed = JSON.parse(readFileSync(config.secrets.path, 'utf8')) as VaultFile;
    if (parsed.v !== 1 || !parsed.entries || typeof parsed.entries !== 'object') throw new Error('not a webcap vault');
    return parsed;
  } catch (err) {
    throw new WebcapError('invalid_params', `${config.secrets.path} is not a readable webcap vault (${(err as Error).message}); nothing was changed`, { field: 'secret' });
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a vault; mode 0600 in a 0700 folder. */
function writeVault(config: SecretsConfig, vault: VaultFile): void {
  mkdirSync(dirname(config.secrets.path), { recursive: true, mode: 0o700 });
  const tmp = `${config.secrets.path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(vault, null, 1), { mode: 0o600 });
  renameSync(tmp, config.secrets.path);
}

export function setSecret(config: SecretsConfig, input: { name: string; origins: string[]; kind: SecretKind; value: string }): SecretSummary {
  const name = checkSecretName(input.name);
  if (input.origins.length === 0) throw new WebcapError('invalid_params', `secret "${name}": name at least one --origin it may be typed into and sent to`, { field: 'origin' });
  if (!input.value) throw new WebcapError('invalid_params', `secret "${name}": the value is empty (it is read from the terminal or stdin, never from arguments)`, { field: 'secret' });
  // Shorter values would match ordinary text: the guard could not tell them from it, so it could not keep them home.
  if (input.kind === 'secret' && [...input.value].length < 4) throw new WebcapError('invalid_params', `secret "${name}": values shorter than 4 characters cannot be guarded; use a longer one`, { field: 'secret' });
  const value = input.kind === 'totp' ? checkTotp(input.value, name) : input.value;
  const key = secretsKey(config); // before reading anything: no key, nothing touched
  const origins = [...new Set(input.origins.map(secretOrigin))].sort();
  const vault = readVault(config);
  const summary: SecretSummary = { name, kind: input.kind, origins, created_at: new Date().toISOString() };
  vault.entries[name] = { ...summary, ...seal(padded(value), key, aadOf(summary)) };
  writeVault(config, vault);
  return summary;
}

/** Sealed as JSON padded to a multiple of 64 bytes: the file does not tell a value's length either. */
function padded(value: string): Buffer {
  const json = JSON.stringify({ value });
  return Buffer.from(json.padEnd(Math.ceil((json.length + 1) / 64) * 64, ' '), 'utf8');
}

/** Checks what `secrets set` can check before asking for the value (so nobody types it for nothing). */
export function checkSetInput(config: SecretsConfig, name: string, origins: string[]): void {
  checkSecretName(name);
  if (origins.length === 0) throw new WebcapError('invalid_params', `secret "${name}": name at least one --origin it may be typed into and sent to`, { field: 'origin' });
  origins.forEach(secretOrigin);
  secretsKey(config);
}

export function listSecrets(config: SecretsConfig): SecretSummary[] {
  return Object.values(readVault(config).entries).map(({ name, kind, origins, created_at, last_used }) => ({ name, kind, origins, created_at, ...(last_used ? { last_used } : {}) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function removeSecret(config: SecretsConfig, name: string): void {
  const vault = readVault(config);
  if (!vault.entries[checkSecretName(name)]) throw new WebcapError('invalid_params', `no secret "${name}" in ${config.secrets.path}`, { field: 'secret' });
  delete vault.entries[name];
  writeVault(config, vault);
}

/** The summary of a name, without decrypting (undefined: not in the vault). */
export function findSecret(config: SecretsConfig, name: string): SecretSummary | undefined {
  const e = readVault(config).entries[name];
  return e && { name: e.name, kind: e.kind, origins: e.origins, created_at: e.created_at };
}

/** Decrypts one entry and notes when it was used (the only write a resolution makes). */
export function openSecret(config: SecretsConfig, name: string): { summary: SecretSummary; value: string } {
  const key = secretsKey(config);
  const vault = readVault(config);
  const e = vault.entries[name];
  if (!e) throw missingSecret(config, name);
  const value = (JSON.parse(unseal(e, key, aadOf(e), `secret "${name}"`, 'secret').toString('utf8')) as { value: string }).value;
  e.last_used = new Date().toISOString();
  writeVault(config, vault);
  return { summary: { name: e.name, kind: e.kind, origins: e.origins, created_at: e.created_at, last_used: e.last_used }, value };
}

/**
 * What a call that names an unknown secret gets: which one and the command
 * that sets it, with the origin of the page it was wanted on when known.
 * `details.missing` carries the same for a program that wants to act on it.
 */
export function missingSecret(config: SecretsConfig, name: string, hint: { kind?: SecretKind; origin?: string } = {}): WebcapError {
  const command = `webcap secrets set ${name} --origin ${hint.origin ?? 'ORIGIN'}${hint.kind === 'totp' ? ' --totp' : ''}`;
  return new WebcapError('invalid_params', `secret "${name}" is not in the vault (${config.secrets.path}); set it with: ${command}${hint.origin ? '' : ' (ORIGIN: the site it belongs to, e.g. https://bank.example)'} — the value is read from the terminal or stdin, never from arguments`, {
    field: 'secret', vault_name: name, missing: { name, command },
  });
}
