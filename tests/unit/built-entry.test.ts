// Which build a new process starts from: the bundle only while it is at least
// as new as the compiled entry it was made from; a `tsc` alone (newer compiled
// files) or a missing bundle runs the compiled modules.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtEntry } from '../../manifests/built-entry.js';
import { tempDir } from '../helpers/host.js';

function tree(): { root: string; compiled: string; bundled: string } {
  const root = tempDir();
  const compiled = join(root, 'dist', 'sidecar', 'main.js');
  const bundled = join(root, 'dist', 'bundle', 'sidecar', 'main.js');
  mkdirSync(join(root, 'dist', 'sidecar'), { recursive: true });
  mkdirSync(join(root, 'dist', 'bundle', 'sidecar'), { recursive: true });
  writeFileSync(compiled, '');
  return { root, compiled, bundled };
}

const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

describe('builtEntry', () => {
  it('runs the bundle made after the compiled build', () => {
    const { root, compiled, bundled } = tree();
    writeFileSync(bundled, '');
    at(compiled, 1_000);
    at(bundled, 2_000);
    expect(builtEntry(root, compiled)).toBe(bundled);
  });

  it('runs the compiled module when it was rebuilt after the bundle (the bundle holds older code)', () => {
    const { root, compiled, bundled } = tree();
    writeFileSync(bundled, '');
    at(bundled, 1_000);
    at(compiled, 2_000);
    expect(builtEntry(root, compiled)).toBe(compiled);
  });

  it('runs the compiled module when there is no bundle', () => {
    const { root, compiled } = tree();
    expect(builtEntry(root, compiled)).toBe(compiled);
  });
});
