// agent_config.toml: defaults, and start-up errors that name the key and line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../host/config/load.js';
import { WebcapError } from '../../../manifests/errors.js';
import { failureSync } from '../../helpers/failure.js';
import { tempDir } from '../../helpers/host.js';

function fromToml(text: string) {
  const file = join(tempDir(), 'agent_config.toml');
  writeFileSync(file, text);
  return () => loadConfig(file);
}

const error = failureSync;

describe('config', () => {
  it('fills every default and resolves paths against the file', () => {
    const cfg = fromToml('[capabilities.browser]\nheadless = false\n')();
    expect(cfg.capabilities.browser).toMatchObject({ headless: false, max_actions_per_minute: 60, max_concurrent_sessions: 3, respect_robots: true, idle_timeout_s: 300, default_timeout_ms: 30000 });
    expect(cfg.consent.non_interactive).toBe('deny');
    expect(cfg.chain.path.endsWith('.webcap/chain.jsonl')).toBe(true);
    expect(cfg.chain.path.startsWith(cfg.base_dir)).toBe(true);
  });

  it.each([
    ['an unknown key', '[capabilities.browser]\nenabled = true\nmax_tabs = 4\n', 'unknown key "capabilities.browser.max_tabs"', 3],
    ['an unknown section', '[chain]\npath = "x"\n[telemetry]\non = true\n', 'unknown key "telemetry"', 3],
    ['a wrong type', '[capabilities.browser]\n\nmax_actions_per_minute = "sixty"\n', '"capabilities.browser.max_actions_per_minute" must be integer', 3],
    ['a bad enum', '[consent]\nnon_interactive = "maybe"\n', '"consent.non_interactive"', 2],
    ['a resolve value that is not an address', '[network]\nresolve = { "shop.test" = "localhost:8080" }\n', '"network.resolve.shop.test" must match pattern', undefined],
    ['broken TOML', '[capabilities.browser\nheadless = true\n', 'agent_config.toml:1', undefined],
  ])('stops on %s, naming the key and the line', (_n, text, message, line) => {
    const e = error(fromToml(text));
    expect(e.code).toBe('invalid_params');
    expect(e.message).toContain(message);
    if (line) expect(e.message).toContain(`agent_config.toml:${line}:`);
  });

  it('takes resolve values with a port: IPv4, bracketed IPv6, or a bare address', () => {
    const cfg = fromToml('[network]\nresolve = { "a.test" = "127.0.0.1:8443", "b.test" = "[::1]:9443", "c.test" = "127.0.0.2" }\n')();
    expect(cfg.network.resolve).toEqual({ 'a.test': '127.0.0.1:8443', 'b.test': '[::1]:9443', 'c.test': '127.0.0.2' });
  });

  it('reads the file named by WEBCAP_CONFIG', () => {
    const file = join(tempDir(), 'other.toml');
    writeFileSync(file, '[capabilities.browser]\nmax_concurrent_sessions = 7\n');
    process.env.WEBCAP_CONFIG = file;
    try {
      expect(loadConfig().capabilities.browser.max_concurrent_sessions).toBe(7);
    } finally {
      delete process.env.WEBCAP_CONFIG;
    }
  });
});
