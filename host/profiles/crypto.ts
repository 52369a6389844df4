// AES-256-GCM (node:crypto) for profiles at rest. The key comes only from the
// environment variable [profiles] key_env names; without it nothing is read
// or written (never a plain-text fallback).
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { WebcapError } from '../../manifests/errors.js';

export interface Sealed { iv: string; tag: string; data: string }

/** 32 bytes as 64 hex digits or base64 are used as they are; any other text is stretched with scrypt. */
export function profileKey(envName: string): Buffer {
  return keyFromEnv(envName, 'profiles', 'profile', 'webcap-profiles-v1');
}

/**
 * The key in $envName for `what` (profiles, secrets). The hint names the
 * variable and the command that makes a key, in words the redactor leaves
 * alone (a `NAME=value` would read as a credential and be hidden).
 */
export function keyFromEnv(envName: string, what: string, field: string, salt: string): Buffer {
  const raw = process.env[envName];
  if (!raw) {
    throw new WebcapError('invalid_params', `${what} are encrypted and need a key in $${envName}: 32 random bytes as 64 hex digits; make one with \`openssl rand -hex 32\` and export it as ${envName}; nothing was read or written`, { field, key_env: envName });
  }
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(raw)) return Buffer.from(raw, 'base64');
  return scryptSync(raw, salt, 32);
}

export function seal(plain: Buffer, key: Buffer, aad: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

export function unseal(sealed: Sealed, key: Buffer, aad: Buffer, what: string, field = 'profile'): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  } catch {
    throw new WebcapError('invalid_params', `${what} cannot be decrypted with this key (a different key, or the file was changed)`, { field });
  }
}
