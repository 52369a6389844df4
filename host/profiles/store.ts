// Profiles on disk: <[profiles] path>/<name>.profile, one JSON envelope per
// profile. The storage state (cookies, localStorage, IndexedDB) is sealed with
// AES-256-GCM (profiles/crypto.ts); the envelope's summary (origins, counts,
// dates) is in clear so `profiles list` needs no key, and it is bound to the
// ciphertext as associated data, so editing it breaks decryption.
import { existsSync, lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { checkIdentifier } from '../../manifests/identifier.js';
import { writeFileSafelySync } from '../../manifests/safe-write.js';
import { badFile, isMissingFile, MiB, readJsonSafelySync } from '../files/safe-read.js';
import type { WebcapConfig } from '../config/types.js';

export interface ProfileSummary { name: string; saved_at: string; origins: string[]; cookies: number; local_storage_items: number }
interface ProfileEnvelope extends ProfileSummary { v: 1; iv: string; tag: string; data: string }
interface ProfileListing { name: string; origins: string[]; cookies: number; bytes: number; age_days: number; saved_at: string; invalid?: string }

/** A profile holds cookies and site storage (IndexedDB too): generous, but bounded. */
const PROFILE_MAX_BYTES = 64 * MiB;

type ProfilesConfig = Pick<WebcapConfig, 'profiles'>;

export function checkName(name: string): string {
  return checkIdentifier(name, 'profile');
}

function profileFile(config: ProfilesConfig, name: string): string {
  return join(config.profiles.path, `${checkName(name)}.profile`);
}

/** The profile file's envelope, checked field by field (undefined: no such profile). */
export function readEnvelope(config: ProfilesConfig, name: string): ProfileEnvelope | undefined {
  const file = profileFile(config, name);
  let data: unknown;
  try {
    data = readJsonSafelySync(file, { what: 'profile', maxBytes: PROFILE_MAX_BYTES });
  } catch (err) {
    if (isMissingFile(err)) return undefined;
    throw err;
  }
  return asEnvelope(data, file, name);
}

const isText = (v: unknown) => typeof v === 'string';
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const FIELDS: Array<[keyof ProfileEnvelope, (v: unknown) => boolean, string]> = [
  ['v', (v) => v === 1, 'the number 1'], ['name', isText, 'a string'], ['saved_at', (v) => isText(v) && !Number.isNaN(Date.parse(v as string)), 'a date'],
  ['origins', (v) => Array.isArray(v) && v.every(isText), 'a list of strings'], ['cookies', isCount, 'a count'],
  ['local_storage_items', isCount, 'a count'], ['iv', isText, 'a string'], ['tag', isText, 'a string'], ['data', isText, 'a string'],
];

/** Names the first field of the wrong type (never its value). */
function asEnvelope(data: unknown, file: string, name: string): ProfileEnvelope {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw badFile(file, 'profile', 'bad_shape', 'not a profile (a JSON object is expected)');
  const e = data as Record<string, unknown>;
  for (const [field, ok, expected] of FIELDS) if (!ok(e[field])) throw badFile(file, 'profile', 'bad_shape', `field "${field}" must be ${expected}`);
  if (e.name !== name) throw badFile(file, 'profile', 'bad_shape', `field "name" does not match the file name "${name}.profile"`);
  return e as unknown as ProfileEnvelope;
}

/** Written to a fresh file and renamed (the safe writer), so a crash never leaves half a profile; mode 0600. */
export function writeEnvelope(config: ProfilesConfig, envelope: ProfileEnvelope): void {
  mkdirSync(config.profiles.path, { recursive: true, mode: 0o700 });
  writeFileSafelySync(profileFile(config, envelope.name), JSON.stringify(envelope), { mode: 0o600, durable: true, what: 'profiles' });
}

/** Every profile file; one that cannot be read is listed with what is wrong with it (never its content). */
export function listProfiles(config: ProfilesConfig): ProfileListing[] {
  if (!existsSync(config.profiles.path)) return [];
  return readdirSync(config.profiles.path).filter((f) => f.endsWith('.profile')).sort().map((f) => {
    const name = f.slice(0, -'.profile'.length);
    const file = join(config.profiles.path, f);
    try {
      const e = readEnvelope(config, name);
      if (!e) throw badFile(file, 'profile', 'missing', 'disappeared while listing');
      return { name: e.name, origins: e.origins, cookies: e.cookies, bytes: lstatSync(file).size, age_days: ageDays(e.saved_at), saved_at: e.saved_at };
    } catch (err) {
      const problem = err instanceof WebcapError ? err.message : 'cannot be read';
      return { name, origins: [], cookies: 0, bytes: lstatSync(file, { throwIfNoEntry: false })?.size ?? 0, age_days: 0, saved_at: '', invalid: problem };
    }
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
