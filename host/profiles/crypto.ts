// AES-256-GCM (node:crypto) for profiles at rest. The key comes only from the
// environment variable [profiles] key_env names; without it nothing is read
// or written (never a plain-text fallback).
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { WebcapError } from '../../manifests/errors.js';

export interface Sealed { iv: string; tag: string; data: string }

/** 32 bytes as 64 hex digits or base64 are used as they are; any other text is stretched with scrypt. */
export function profileKey(envName: string): Buffer {
  const raw = process.env[envName];
  if (!raw) {
    throw new WebcapError('invalid_params', `profiles are encrypted and need a key in $${envName} (32 random bytes as hex: make one with \`openssl rand -hex 32\` and export it as ${envName}); nothing was read or written`, { field: 'profile', key_env: envName });
  }
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(raw)) return Buffer.from(raw, 'base64');
  return scryptSync(raw, 'webcap-profiles-v1', 32);
}

export function seal(plain: Buffer, key: Buffer, aad: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

export function unseal(sealed: Sealed, key: Buffer, aad: Buffer, what: string): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  } catch {
    throw new WebcapError('invalid_params', `${what} cannot be decrypted with this key (a different key, or the file was changed)`, { field: 'profile' });
  }
}
