// The vault file: sealed values, clear summaries bound to them, no key no file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSecret, listSecrets, openSecret, setSecret } from '../../../host/secrets/vault.js';
import { tempDir } from '../../helpers/host.js';

const ENV = 'WEBCAP_UNIT_VAULT_KEY';
const cfg = () => ({ secrets: { path: join(tempDir('webcap-vault-'), 'vault.json'), key_env: ENV, dlp: true } });
afterEach(() => { delete process.env[ENV]; });

describe('vault', () => {
  it('round-trips a value; the file shows neither it nor its length', () => {
    process.env[ENV] = 'd'.repeat(64);
    const c = cfg();
    setSecret(c, { name: 'short', kind: 'secret', origins: ['https://a.example'], value: 'abcd' });
    setSecret(c, { name: 'long', kind: 'secret', origins: ['https://a.example'], value: 'abcdefghijklmnopqrstuvwxyz01234' });
    expect(openSecret(c, 'short').value).toBe('abcd');
    const file = JSON.parse(readFileSync(c.secrets.path, 'utf8')) as { entries: Record<string, { data: string }> };
    expect(file.entries.short.data.length).toBe(file.entries.long.data.length);
    expect(JSON.stringify(file)).not.toContain('abcd');
  });

  it('moving a value to another origin in the file breaks it', () => {
    process.env[ENV] = 'd'.repeat(64);
    const c = cfg();
    setSecret(c, { name: 'pw', kind: 'secret', origins: ['https://a.example'], value: 'hunter22' });
    const file = JSON.parse(readFileSync(c.secrets.path, 'utf8')) as { entries: Record<string, { origins: string[] }> };
    file.entries.pw.origins = ['https://evil.example'];
    writeFileSync(c.secrets.path, JSON.stringify(file));
    expect(findSecret(c, 'pw')?.origins).toEqual(['https://evil.example']);
    expect(() => openSecret(c, 'pw')).toThrow(/cannot be decrypted/);
  });

  it('without the key nothing is written, and list needs no key', () => {
    const c = cfg();
    expect(() => setSecret(c, { name: 'pw', kind: 'secret', origins: ['https://a.example'], value: 'x1234' })).toThrow(/\$WEBCAP_UNIT_VAULT_KEY.*openssl rand -hex 32/);
    expect(listSecrets(c)).toEqual([]);
  });
});
