// Start-up checks beyond the schema: a bad allow_private entry, a bad redaction
// regex, and webcap's own files placed where a tool writes all stop start-up
// with invalid_params naming the key.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../host/config/load.js';
import { WebcapError } from '../../../manifests/errors.js';
import { failureSync } from '../../helpers/failure.js';
import { tempDir } from '../../helpers/host.js';

function load(text: string) {
  const file = join(tempDir(), 'agent_config.toml');
  writeFileSync(file, text);
  return loadConfig(file);
}

const error = (text: string): WebcapError => failureSync(() => load(text));

describe('config checks beyond the schema', () => {
  it.each([
    ['a CIDR with a bad prefix', '[network]\nallow_private = ["10.0.0.0/33"]\n', 'network.allow_private', '"10.0.0.0/33"', 2],
    ['a CIDR with a bad network', '[network]\nallow_private = ["300.0.0.0/8"]\n', 'network.allow_private', '"300.0.0.0/8"', 2],
    ['a name instead of an address', '[network]\n\nallow_private = ["127.0.0.1", "localhost"]\n', 'network.allow_private', '"localhost"', 3],
    ['an address with junk', '[network]\nallow_private = ["127.0.0.1x"]\n', 'network.allow_private', '"127.0.0.1x"', 2],
    ['an invalid regex', '[redaction]\npatterns = ["ok-\\\\d+", "(unclosed"]\n', 'redaction.patterns', '"(unclosed"', 2],
    ['a chain inside the screenshots folder', '[workspace]\npath = "ws"\n[chain]\npath = "ws/screenshots/chain.jsonl"\n', 'chain.path', 'screenshots folder', 4],
    ['a chain inside the downloads folder', '[chain]\npath = ".webcap/downloads/c.jsonl"\n', 'chain.path', 'downloads folder', 2],
    ['a log inside the pages folder', '[logging]\nfile = ".webcap/pages/webcap.log"\n', 'logging.file', 'pages folder', 2],
  ])('stops on %s, naming the key', (_n, text, key, detail, line) => {
    const e = error(text);
    expect(e).toBeInstanceOf(WebcapError);
    expect(e.code).toBe('invalid_params');
    expect(e.message).toContain(`"${key}"`);
    expect(e.message).toContain(detail);
    expect(e.message).toContain(`agent_config.toml:${line}:`);
    expect(e.details.key).toBe(key);
  });

  it('accepts addresses, CIDRs (v4, v6) and valid patterns, and a chain beside the tool folders', () => {
    const cfg = load('[network]\nallow_private = ["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"]\n[redaction]\npatterns = ["ACME-\\\\d{6}"]\n[chain]\npath = ".webcap/chains/c.jsonl"\n');
    expect(cfg.network.allow_private).toHaveLength(4);
    expect(cfg.plans).toEqual({ max_steps: 100000, max_duration_s: 3600, max_bytes: 1048576 });
    expect(cfg.chain.checkpoint_every).toBe(1000);
  });
});
