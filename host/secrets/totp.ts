// TOTP seeds (RFC 6238) through the otpauth package: a seed is stored as an
// otpauth:// URI, from either such a URI or a bare base32 secret, so the
// digits, period and algorithm an issuer chose travel with it.
import * as OTPAuth from 'otpauth';
import { WebcapError } from '../../manifests/errors.js';

export function checkTotp(input: string, name: string): string {
  const text = input.trim();
  try {
    if (/^otpauth:\/\//i.test(text)) {
      const parsed = OTPAuth.URI.parse(text);
      if (!(parsed instanceof OTPAuth.TOTP)) throw new Error('an HOTP (counter) URI, not TOTP');
      return parsed.toString();
    }
    return new OTPAuth.TOTP({ issuer: 'webcap', label: name, secret: OTPAuth.Secret.fromBase32(text.replace(/\s+/g, '').toUpperCase()) }).toString();
  } catch {
    // The library's message may quote the input: it is not repeated.
    throw new WebcapError('invalid_params', `secret "${name}" (--totp): give the base32 seed or an otpauth://totp/ URI`, { field: 'secret' });
  }
}
