// The native client's SHA-256 (native/sha256.c) against Node's crypto: the
// config digest it sends must be byte for byte the daemon's, or every verb
// falls back to Node. Compiled here with a tiny driver (stdin → hex digest).
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/host.js';

const hasCc = spawnSync('cc', ['--version']).status === 0;

describe.skipIf(!hasCc)('native/sha256.c (skipped without a C compiler)', () => {
  it('digests every length around the block and padding edges as Node does', () => {
    const dir = tempDir('webcap-sha-');
    writeFileSync(join(dir, 'driver.c'), `#include "${resolve('native/sha256.c')}"
#include <unistd.h>
int main(void) {
  sha256_ctx c; char buf[4096], hex[65]; ssize_t n;
  sha256_init(&c);
  while ((n = read(0, buf, sizeof buf)) > 0) sha256_update(&c, buf, (size_t)n);
  sha256_hex(&c, hex);
  puts(hex);
  return 0;
}
`);
    const built = spawnSync('cc', ['-std=c99', '-Wall', '-Werror', '-O2', '-o', join(dir, 'sha'), join(dir, 'driver.c')], { encoding: 'utf8' });
    expect(built.stderr).toBe('');
    for (const length of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 4097, 200_000]) {
      const input = randomBytes(length);
      const out = spawnSync(join(dir, 'sha'), { input, encoding: 'utf8' }).stdout.trim();
      expect(out, `length ${length}`).toBe(createHash('sha256').update(input).digest('hex'));
    }
    expect(spawnSync(join(dir, 'sha'), { input: 'abc', encoding: 'utf8' }).stdout.trim()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
