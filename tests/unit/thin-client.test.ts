// The thin client's two decisions that must match the full CLI exactly: the
// config digest it sends (computed from the names the daemon reports, without
// the config loader), and which command lines it takes at all (anything the
// full CLI would parse differently is handed over).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { configContents, configIdentity, envNamesOf, identityOf } from '../../host/daemon/identity.js';
import { parseVerb } from '../../host/cli/thin-args.js';
import { tempDir } from '../helpers/host.js';

describe('the thin client\'s config digest', () => {
  it('equals the full CLI\'s for the same file and environment, and differs after an edit', () => {
    const file = join(tempDir('wtc-'), 'agent_config.toml');
    writeFileSync(file, '[store]\npassword_env = "MY_REDIS_PASSWORD"\n');
    const config = loadConfig(file);
    const env = { MY_REDIS_PASSWORD: 'pw', WEBCAP_PROFILE_KEY: 'k'.repeat(64), UNRELATED: 'x' };
    const names = [...envNamesOf(config)].sort();
    const before = identityOf(file, configContents(file), names, env);
    expect(before).toBe(configIdentity(file, config, env));
    writeFileSync(file, '[store]\npassword_env = "MY_REDIS_PASSWORD"\n# edited\n');
    expect(identityOf(file, configContents(file), names, env)).not.toBe(before);
    expect(identityOf(file, configContents(file), names, env)).toBe(configIdentity(file, loadConfig(file), env));
  });
});

describe('which command lines the thin client takes', () => {
  it('reads the program\'s and the verb\'s options wherever they stand', () => {
    expect(parseVerb(['--config', 'c.toml', 'fill', 'e3', 'hello', '--json', '--session=s2'])).toMatchObject({ verb: { id: 'web.fill' }, args: ['e3', 'hello'], config: 'c.toml', json: true, session: 's2' });
    expect(parseVerb(['-y', 'press', 'Tab', 'Enter'])).toMatchObject({ verb: { id: 'web.keypress' }, args: ['Tab', 'Enter'], yes: true });
    expect(parseVerb(['extract', '.p', '--limit', '3'])).toMatchObject({ options: { limit: '3' } });
  });

  it('hands over anything else to the full CLI', () => {
    for (const argv of [['click'], ['click', 'a', 'b'], ['open', 'u', '--help'], ['snapshot', '--no-daemon'], ['snapshot', '--limit', '3'],
      ['click', '-x'], ['fill', 'e1', '--', '-5'], ['call', 'web.open'], ['snapshot', '--mode'], ['open', 'u', '--config', 'a', '--config', 'b']]) {
      expect(parseVerb(argv), argv.join(' ')).toBeUndefined();
    }
  });
});
