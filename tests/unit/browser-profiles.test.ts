// Profile storage split by today's allowlist, and AES-256-GCM at rest.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { profileKey, seal, unseal } from '../../host/profiles/crypto.js';
import { merge, split, type StorageState } from '../../host/profiles/state.js';

const state: StorageState = {
  cookies: [
    { name: 'sid', value: 'a', domain: 'shop.test', path: '/' },
    { name: 'pref', value: 'b', domain: '.bank.test', path: '/' },
  ],
  origins: [
    { origin: 'https://shop.test', localStorage: [{ name: 'cart', value: '1' }] },
    { origin: 'https://bank.test', localStorage: [{ name: 'token', value: 't' }] },
  ],
};

afterEach(() => { delete process.env.WEBCAP_TEST_KEY; });

describe('profile state', () => {
  it('restores only what the allowlist allows now; the rest is written back untouched', () => {
    const { allowed, kept } = split(state, { domains_allowlist: ['shop.test'], domains_denylist: [] });
    expect(allowed.cookies.map((c) => c.name)).toEqual(['sid']);
    expect(allowed.origins.map((o) => o.origin)).toEqual(['https://shop.test']);
    expect(kept.cookies.map((c) => c.name)).toEqual(['pref']);
    // The session changed shop.test's storage; bank.test comes back exactly as it was.
    const session: StorageState = { cookies: [{ name: 'sid', value: 'new', domain: 'shop.test', path: '/' }], origins: [{ origin: 'https://shop.test', localStorage: [] }] };
    expect(merge(session, kept)).toEqual({ cookies: [session.cookies[0], state.cookies[1]], origins: [session.origins[0], state.origins[1]] });
  });

  it('a denylisted host is not restored even if the allowlist has a wildcard', () => {
    const { allowed } = split(state, { domains_allowlist: ['*'], domains_denylist: ['bank.test'] });
    expect(allowed.cookies.map((c) => c.domain)).toEqual(['shop.test']);
  });
});

describe('profile crypto', () => {
  it('round-trips with the key; a wrong key or an edited summary fails to decrypt', () => {
    process.env.WEBCAP_TEST_KEY = randomBytes(32).toString('hex');
    const key = profileKey('WEBCAP_TEST_KEY');
    const aad = Buffer.from('["shop",1]');
    const sealed = seal(Buffer.from('{"cookies":[]}'), key, aad);
    expect(sealed.data).not.toContain('cookies');
    expect(unseal(sealed, key, aad, 'p').toString()).toBe('{"cookies":[]}');
    expect(() => unseal(sealed, randomBytes(32), aad, 'profile "shop"')).toThrow(/profile "shop" cannot be decrypted/);
    expect(() => unseal(sealed, key, Buffer.from('["shop",2]'), 'p')).toThrow(/cannot be decrypted/);
  });

  it('without the variable: invalid_params naming it', () => {
    expect(() => profileKey('WEBCAP_TEST_KEY')).toThrow(/\$WEBCAP_TEST_KEY/);
    process.env.WEBCAP_TEST_KEY = 'a passphrase';
    expect(profileKey('WEBCAP_TEST_KEY')).toHaveLength(32);
  });
});
