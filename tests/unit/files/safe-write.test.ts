// The one safe writer, as the host uses it (profiles, head files, reports):
// a link at the name (to a file outside, or dangling), a hard link, or a
// folder link on the way is refused, and nothing lands outside.
import { existsSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileSafely, writeFileSafelySync } from '../../../manifests/safe-write.js';
import { writeEnvelope } from '../../../host/profiles/store.js';
import { writeHeadFile } from '../../../host/chain/checkpoint.js';
import { tempDir } from '../../helpers/host.js';

let dir: string;
let far: string;
let outside: string;
beforeEach(() => {
  dir = tempDir('webcap-safe-write-');
  far = tempDir('webcap-outside-');
  outside = join(far, 'keep.txt');
  writeFileSync(outside, 'original');
});

describe('writeFileSafely', () => {
  it.each([
    ['a symlink to a file outside', (p: string) => symlinkSync(outside, p), /it is a symbolic link/],
    ['a dangling symlink', (p: string) => symlinkSync(join(far, 'new.txt'), p), /it is a symbolic link/],
    ['a hard link', (p: string) => linkSync(outside, p), /it is a hard link/],
  ])('refuses a name that is %s and writes nothing outside', async (_kind, plant, problem) => {
    const path = join(dir, 'out.txt');
    plant(path);
    for (const write of [() => writeFileSafely(path, 'x'), async () => writeFileSafelySync(path, 'x')]) {
      await expect(write()).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringMatching(problem) });
    }
    expect(readFileSync(outside, 'utf8')).toBe('original');
    expect(existsSync(join(far, 'new.txt'))).toBe(false);
  });

  it('refuses a folder link between the root and the file', () => {
    symlinkSync(far, join(dir, 'sub'));
    expect(() => writeFileSafelySync(join(dir, 'sub', 'keep.txt'), 'x', { root: dir })).toThrow(/the folder is a symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('original');
  });

  it('replaces an ordinary file, with the mode asked for', () => {
    const path = join(dir, 'a', 'b.txt');
    writeFileSafelySync(path, 'one', { root: dir, mode: 0o600, durable: true });
    writeFileSafelySync(path, 'two', { root: dir, mode: 0o600 });
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('host writers go through it', () => {
  it('a profile save onto a planted link is refused', () => {
    mkdirSync(join(dir, 'profiles'));
    symlinkSync(outside, join(dir, 'profiles', 'shop.profile'));
    const envelope = { v: 1 as const, name: 'shop', saved_at: new Date().toISOString(), origins: [], cookies: 0, local_storage_items: 0, iv: '', tag: '', data: '' };
    expect(() => writeEnvelope({ profiles: { path: join(dir, 'profiles') } } as never, envelope)).toThrow(/symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('original');
  });

  it('a signed head file onto a planted link is refused', () => {
    symlinkSync(outside, join(dir, 'chain.jsonl.head.json'));
    expect(() => writeHeadFile(join(dir, 'chain.jsonl'), { count: 1, head: 'h', ts: 't', key_id: 'k', signature: 's' })).toThrow(/symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('original');
  });
});
