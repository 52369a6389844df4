// Profiles on disk: <[profiles] path>/<name>.profile, one JSON envelope per
// profile. The storage state (cookies, localStorage, IndexedDB) is sealed with
// AES-256-GCM (profiles/crypto.ts); the envelope's summary (origins, counts,
// dates) is in clear so `profiles list` needs no key, and it is bound to the
// ciphertext as associated data, so editing it breaks decryption.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { checkIdentifier } from '../../manifests/identifier.js';
import type { WebcapConfig } from '../config/types.js';

export interface ProfileSummary { name: string; saved_at: string; origins: string[]; cookies: number; local_storage_items: number }
export interface ProfileEnvelope extends ProfileSummary { v: 1; iv: string; tag: string; data: string }
export interface ProfileListing { name: string; origins: string[]; cookies: number; bytes: number; age_days: number; saved_at: string }

type ProfilesConfig = Pick<WebcapConfig, 'profiles'>;

export function checkName(name: string): string {
  return checkIdentifier(name, 'profile');
}

export function profileFile(config: ProfilesConfig, name: string): string {
  return join(config.profiles.path, `${checkName(name)}.profile`);
}

export function readEnvelope(config: ProfilesConfig, name: string): ProfileEnvelope | undefined {
  const file = profileFile(config, name);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as ProfileEnvelope;
}

/** Written to a temporary file and renamed, so a crash never leaves half a profile; mode 0600. */
export function writeEnvelope(config: ProfilesConfig, envelope: ProfileEnvelope): void {
  mkdirSync(config.profiles.path, { recursive: true, mode: 0o700 });
  const file = profileFile(config, envelope.name);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(envelope), { mode: 0o600 });
  renameSync(tmp, file);
}

export function listProfiles(config: ProfilesConfig): ProfileListing[] {
  if (!existsSync(config.profiles.path)) return [];
  return readdirSync(config.profiles.path).filter((f) => f.endsWith('.profile')).sort().map((f) => {
    const file = join(config.profiles.path, f);
    const e = JSON.parse(readFileSync(file, 'utf8')) as ProfileEnvelope;
    return { name: e.name, origins: e.origins, cookies: e.cookies, bytes: statSync(file).size, age_days: ageDays(e.saved_at), saved_at: e.saved_at };
  });
}

export function deleteProfile(config: ProfilesConfig, name: string): void {
  const file = profileFile(config, name);
  if (!existsSync(file)) throw new WebcapError('invalid_params', `no profile "${name}" in ${config.profiles.path}`, { field: 'profile' });
  unlinkSync(file);
}

export function ageDays(savedAt: string): number {
  return (Date.now() - Date.parse(savedAt)) / 86_400_000;
}
