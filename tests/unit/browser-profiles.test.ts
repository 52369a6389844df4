// Profile storage split by today's allowlist, and AES-256-GCM at rest.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateConfig } from '../../host/config/load.js';
import { fixedAsker } from '../../host/consent/asker.js';
import { ConsentGate } from '../../host/consent/gate.js';
import { Profiles } from '../../host/profiles/manager.js';
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

describe('profile age', () => {
  it('a profile older than max_age_days is not restored (and stays on disk)', async () => {
    process.env.WEBCAP_TEST_KEY = randomBytes(32).toString('hex');
    const dir = mkdtempSync(join(tmpdir(), 'wc-age-'));
    const config = validateConfig({ capabilities: { browser: { domains_allowlist: ['shop.test'] } }, profiles: { key_env: 'WEBCAP_TEST_KEY', max_age_days: 30 }, workspace: { path: dir } }, dir);
    const events: string[] = [];
    const gate = new ConsentGate({ asker: fixedAsker(true), config: config.consent, record: async () => undefined });
    const profiles = new Profiles(config, gate, async (event) => { events.push(event); });
    await profiles.opened('s1', 'old', { cookies: [], origins: [] }, {});
    await profiles.closed('s1', state);
    expect(events).toEqual(['profile_restored', 'profile_saved']);
    expect(profiles.load('old').state.cookies).toHaveLength(1);
    const now = Date.now();
    const later = vi.spyOn(Date, 'now').mockReturnValue(now + 31 * 86_400_000);
    try {
      const loaded = profiles.load('old');
      expect(loaded.state).toEqual({ cookies: [], origins: [] });
      expect(loaded.note).toMatchObject({ restored: false, reason: expect.stringMatching(/older than max_age_days/) });
      expect(loaded.kept.cookies).toHaveLength(2); // written back as it was if the session is saved
    } finally {
      later.mockRestore();
    }
    expect(existsSync(join(dir, 'profiles', 'old.profile'))).toBe(true);
  });
});
