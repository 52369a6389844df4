// The digest a daemon is matched on changes with the config file's path and
// contents and with every variable the config names in an *_env key (set,
// changed or unset), and never carries a value in the clear.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { configIdentity, envNamesOf } from '../../host/daemon/identity.js';
import { tempDir } from '../helpers/host.js';

describe('configIdentity', () => {
  const dir = tempDir('wci-');
  const file = join(dir, 'agent_config.toml');
  writeFileSync(file, '[store]\npassword_env = "MY_REDIS_PASSWORD"\n');
  const config = loadConfig(file);

  it('names the variables the config reads', () => {
    expect([...envNamesOf(config)]).toEqual(expect.arrayContaining(['WEBCAP_PROFILE_KEY', 'MY_REDIS_PASSWORD', 'WEBCAP_CHROMIUM']));
  });

  it('differs when the key is set, changed or unset, and when the file changes; never holds the value', () => {
    const base = configIdentity(file, config, {});
    const withKey = configIdentity(file, config, { WEBCAP_PROFILE_KEY: 'k'.repeat(64) });
    expect(withKey).not.toBe(base);
    expect(configIdentity(file, config, { WEBCAP_PROFILE_KEY: 'j'.repeat(64) })).not.toBe(withKey);
    expect(configIdentity(file, config, { MY_REDIS_PASSWORD: 'pw' })).not.toBe(base);
    expect(configIdentity(file, config, { UNRELATED: 'x' })).toBe(base);
    expect(withKey).not.toContain('kkkk');
    writeFileSync(file, '[store]\npassword_env = "MY_REDIS_PASSWORD"\n# edited\n');
    expect(configIdentity(file, config, {})).not.toBe(base);
    expect(configIdentity(null, config, {})).not.toBe(base);
  });
});
