// Files are data from a stranger: every kind of file webcap reads from its
// workspace or config, planted as a link to a readable file outside, cut
// short, emptied, filled with non-JSON or made huge. Each fails as
// invalid_params naming the file and the problem, and the outside file's
// bytes appear nowhere (error, listing, cache answer).
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { WebcapError } from '../../../manifests/errors.js';
import { CausalChain } from '../../../host/chain/chain.js';
import { readEntries, verifyChain } from '../../../host/chain/verify.js';
import { readTail } from '../../../host/chain/tail.js';
import { DiskCache } from '../../../host/cache/store.js';
import { FileStateBackend } from '../../../host/search/provider-state-file.js';
import { loadProfiles } from '../../../host/profiles/site-profiles.js';
import { listProfiles, readEnvelope } from '../../../host/profiles/store.js';
import { readChainEntries } from '../../../host/replay/chain-calls.js';
import { readText } from '../../../host/cli/args.js';
import { readJsonSafelySync, readLinesSafelySync } from '../../../host/files/safe-read.js';
import { failure, failureSync } from '../../helpers/failure.js';
import { tempDir } from '../../helpers/host.js';

const SECRET = 'root:x:0:0:TOP-SECRET-7f3a9c:/root:/bin/bash';
let dir: string;
let outside: string;

beforeEach(() => {
  dir = tempDir('webcap-hostile-files-');
  const far = tempDir('webcap-outside-');
  outside = join(far, 'passwd');
  writeFileSync(outside, `${SECRET}\n`);
});

const failureOf = (run: () => Promise<unknown>): Promise<WebcapError> => failure(run());

function expectClean(err: WebcapError, file: string, problem: RegExp): void {
  expect(err).toBeInstanceOf(WebcapError);
  expect(err.code).toBe('invalid_params');
  expect(err.message).toContain(file);
  expect(err.message).toMatch(problem);
  expect(JSON.stringify({ m: err.message, d: err.details })).not.toMatch(/TOP-SECRET|root:x/);
}

const profilesConfig = () => ({ profiles: { path: join(dir, 'profiles'), key_env: 'K', max_age_days: 30 } }) as never;

describe('profiles (host/profiles/*)', () => {
  beforeEach(() => mkdirSync(join(dir, 'profiles')));
  const file = () => join(dir, 'profiles', 'shop.profile');

  it('a profile that is a link to a readable file outside is refused, and listed as invalid without its bytes', () => {
    symlinkSync(outside, file());
    expectClean(failureSync(() => readEnvelope(profilesConfig(), 'shop')), file(), /symbolic link/);
    const listed = listProfiles(profilesConfig());
    expect(listed).toHaveLength(1);
    expect(listed[0]!.invalid).toMatch(/symbolic link/);
    expect(JSON.stringify(listed)).not.toMatch(/TOP-SECRET|root:x/);
  });

  it.each([
    ['truncated', '{"v":1,"name":"shop","saved_at":"2026-01-01T00:00:00Z","origins":["TOP-SECRET', /truncated/],
    ['empty', '', /empty/],
    ['non-JSON', SECRET, /not valid JSON/],
    ['wrong type', JSON.stringify({ v: 1, name: 'shop', saved_at: '2026-01-01T00:00:00Z', origins: 'TOP-SECRET-7f3a9c', cookies: 1, local_storage_items: 0, iv: '', tag: '', data: '' }), /field "origins" must be a list of strings/],
  ])('a %s profile fails as invalid_params naming the problem', (_kind, text, problem) => {
    writeFileSync(file(), text);
    expectClean(failureSync(() => readEnvelope(profilesConfig(), 'shop')), file(), problem);
    expect(JSON.stringify(listProfiles(profilesConfig()))).not.toMatch(/TOP-SECRET|root:x/);
  });

  it('a huge profile is refused without being read whole', () => {
    writeFileSync(file(), '{');
    truncateSync(file(), 65 * 1024 * 1024);   // sparse: 65 MiB on paper
    expectClean(failureSync(() => readEnvelope(profilesConfig(), 'shop')), file(), /too large/);
  });

  it('a FIFO planted as a profile does not hang the read', () => {
    mkfifoSync(file());
    expectClean(failureSync(() => readEnvelope(profilesConfig(), 'shop')), file(), /not a regular file/);
  });
});

function mkfifoSync(path: string): void {
  execFileSync('mkfifo', [path]);
}

describe('the causal chain and its head file (host/chain/*)', () => {
  it('a chain that is a link is neither read (verify, show, export, tail) nor appended to', async () => {
    const chain = join(dir, 'chain.jsonl');
    symlinkSync(outside, chain);
    for (const read of [() => verifyChain(chain), () => readEntries(chain), () => readChainEntries(chain), () => readTail(chain)]) {
      expectClean(failureSync(read), chain, /symbolic link/);
    }
    const err = await failureOf(() => CausalChain.open(chain));
    expect(err.details).toMatchObject({ reason: 'chain_unwritable', errno: 'ELOOP' });
    expect(readFileSync(outside, 'utf8')).toBe(`${SECRET}\n`);   // nothing appended through the link
  });

  it('a chain line longer than any entry is refused, not loaded', () => {
    const chain = join(dir, 'chain.jsonl');
    writeFileSync(chain, 'x');
    truncateSync(chain, 65 * 1024 * 1024);   // one 65 MiB line of NULs
    expectClean(failureSync(() => verifyChain(chain)), chain, /too large \(line 1/);
  });

  it('a signed head file that is a link is reported as a problem without its bytes', async () => {
    const chain = join(dir, 'chain.jsonl');
    const c = await CausalChain.open(chain);
    await c.append({ kind: 'event' });
    await c.close();
    symlinkSync(outside, `${chain}.head.json`);
    const { generateKeyPairSync } = await import('node:crypto');
    const result = verifyChain(chain, { publicKey: generateKeyPairSync('ed25519').publicKey });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toMatch(/symbolic link/);
    expect(JSON.stringify(result)).not.toMatch(/TOP-SECRET|root:x/);
  });
});

describe('caches, provider state, site profiles, plans', () => {
  const key = 'a'.repeat(64);

  it('a cache entry planted as a link is a miss, never an answer', async () => {
    mkdirSync(join(dir, 'cache', 'aa'), { recursive: true });
    writeFileSync(outside, JSON.stringify({ key, stored_at: Date.now(), value: 'TOP-SECRET-7f3a9c' }));
    symlinkSync(outside, join(dir, 'cache', 'aa', `${key}.json`));
    expect(await new DiskCache({ dir: join(dir, 'cache') }).get(key)).toBeUndefined();
  });

  it('a cache write onto a planted link is refused and the outside file is unchanged', async () => {
    mkdirSync(join(dir, 'cache', 'aa'), { recursive: true });
    symlinkSync(outside, join(dir, 'cache', 'aa', `${key}.json`));
    const err = await failureOf(() => new DiskCache({ dir: join(dir, 'cache') }).set(key, { page: 'x' }));
    expect(err.message).toMatch(/symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe(`${SECRET}\n`);
  });

  it.each([
    ['a link', (f: string) => symlinkSync(outside, f), /symbolic link/],
    ['non-JSON', (f: string) => writeFileSync(f, SECRET), /not valid JSON/],
    ['a JSON list', (f: string) => writeFileSync(f, '["TOP-SECRET-7f3a9c"]'), /not a JSON object/],
  ])('search provider state that is %s is refused (the caller then refuses the request)', async (_kind, plant, problem) => {
    const file = join(dir, 'provider-state.json');
    plant(file);
    expectClean(await failureOf(() => new FileStateBackend(file).read()), file, problem);
  });

  it.each([
    ['a link', (f: string) => symlinkSync(outside, f), /symbolic link/],
    ['non-JSON', (f: string) => writeFileSync(f, SECRET), /not valid JSON/],
    ['empty', (f: string) => writeFileSync(f, ''), /empty/],
    ['huge', (f: string) => { writeFileSync(f, '{'); truncateSync(f, 2 * 1024 * 1024); }, /too large/],
  ])('a site profile that is %s stops loading with the file named', (_kind, plant, problem) => {
    const file = join(dir, 'shop.json');
    plant(file);
    const err = failureSync(() => loadProfiles(dir));
    expect(err.code).toBe('invalid_params');
    expect(err.message).toContain('shop.json');
    expect(err.message).toMatch(problem);
    expect(err.message).not.toMatch(/TOP-SECRET|root:x/);
  });

  it('a plan file that is a FIFO or huge is refused (a link the user names is followed)', () => {
    const fifo = join(dir, 'plan.rtfs');
    mkfifoSync(fifo);
    expectClean(failureSync(() => readText(fifo)), fifo, /not a regular file/);
    const huge = join(dir, 'huge.rtfs');
    writeFileSync(huge, '(');
    truncateSync(huge, 65 * 1024 * 1024);
    expectClean(failureSync(() => readText(huge)), huge, /too large/);
    const link = join(dir, 'link.rtfs');
    writeFileSync(join(dir, 'real.rtfs'), '(call :web.url {})');
    symlinkSync(join(dir, 'real.rtfs'), link);
    expect(readText(link)).toBe('(call :web.url {})');
  });
});

describe('the reader itself', () => {
  it('never quotes the bytes it could not parse', () => {
    const file = join(dir, 'x.json');
    writeFileSync(file, SECRET);
    expectClean(failureSync(() => readJsonSafelySync(file, { what: 'test file', maxBytes: 1024 })), file, /not valid JSON/);
  });

  it('streams lines of a file of any length and marks a last line without its newline', () => {
    const file = join(dir, 'lines');
    writeFileSync(file, 'a\n\nbc\nd');
    expect([...readLinesSafelySync(file, { what: 'lines', maxBytes: 8 })]).toEqual([
      { text: 'a', n: 1, terminated: true }, { text: '', n: 2, terminated: true }, { text: 'bc', n: 3, terminated: true }, { text: 'd', n: 4, terminated: false },
    ]);
  });
});
