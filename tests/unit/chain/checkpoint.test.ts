// Signed checkpoints: what a rewriter without the private key cannot redo.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CausalChain } from '../../../host/chain/chain.js';
import { headFileOf, signerFromEnv } from '../../../host/chain/checkpoint.js';
import { verifyChain } from '../../../host/chain/verify.js';
import { rehashedFrom } from './rewrite.js';

const keys = () => generateKeyPairSync('ed25519');
const pem = (k: ReturnType<typeof keys>) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function signedChain(entries: number, every: number, k = keys()) {
  const path = join(mkdtempSync(join(tmpdir(), 'webcap-ckpt-')), 'chain.jsonl');
  const signer = signerFromEnv('TEST_KEY', { TEST_KEY: pem(k) });
  const chain = await CausalChain.open(path, { signer, checkpointEvery: every });
  for (let i = 0; i < entries; i++) await chain.append({ kind: 'call', capability: 'web.extract', params: { i } });
  await chain.close();
  return { path, key: k.publicKey, lines: readFileSync(path, 'utf8').split('\n').filter(Boolean) };
}

const write = (path: string, lines: string[]) => writeFileSync(path, lines.map((l) => `${l}\n`).join(''));

describe('signed checkpoints', () => {
  it('signs every N entries and at close, and verifies with the public key', async () => {
    const { path, key, lines } = await signedChain(10, 4);
    const kinds = lines.map((l) => JSON.parse(l).kind);
    // 4 calls, checkpoint, 3 calls (seq 6..8 → 8 is a multiple of 4), checkpoint, 3 calls, closing checkpoint
    expect(kinds.filter((k) => k === 'checkpoint')).toHaveLength(3);
    expect(kinds.at(-1)).toBe('checkpoint');
    const head = JSON.parse(readFileSync(headFileOf(path), 'utf8'));
    expect(head).toMatchObject({ count: lines.length - 1, head: JSON.parse(lines.at(-2)!).hash });
    expect(verifyChain(path, { publicKey: key })).toMatchObject({ ok: true, checkpoints: 3, signed_through: lines.length - 1 });
  });

  it('detects a consistent rewrite (every hash recomputed) that the hash chain alone accepts', async () => {
    const { path, key, lines } = await signedChain(10, 4);
    write(path, rehashedFrom(lines, 1));
    expect(verifyChain(path)).toMatchObject({ ok: true });
    expect(verifyChain(path, { publicKey: key })).toMatchObject({ ok: false, line: 5, reason: expect.stringMatching(/rewritten/) });
  });

  it('detects a rewrite that also dropped the checkpoint entries, through the signed head file', async () => {
    const { path, key, lines } = await signedChain(6, 100);
    const plain = lines.filter((l) => JSON.parse(l).kind !== 'checkpoint');
    write(path, rehashedFrom(plain, 2));
    expect(verifyChain(path)).toMatchObject({ ok: true });
    expect(verifyChain(path, { publicKey: key })).toMatchObject({ ok: false, reason: expect.stringMatching(/signed head .* rewritten/) });
  });

  it('detects a truncation past the last checkpoint', async () => {
    const { path, key, lines } = await signedChain(9, 4);
    write(path, lines.slice(0, 6)); // ends right after a checkpoint entry: looks clean
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 6 });
    expect(verifyChain(path, { publicKey: key })).toMatchObject({ ok: false, reason: expect.stringMatching(/truncated: the signed head .* covers \d+ entries, the file has 6/) });
  });

  it('refuses another key, a forged signature and a missing head file', async () => {
    const { path, key, lines } = await signedChain(5, 100);
    expect(verifyChain(path, { publicKey: keys().publicKey })).toMatchObject({ ok: false });
    const forged = JSON.parse(lines.at(-1)!);
    forged.result.signature = Buffer.alloc(64, 1).toString('base64');
    const head = readFileSync(headFileOf(path), 'utf8');
    writeFileSync(headFileOf(path), head.replace(/"signature":"[^"]+"/, `"signature":"${forged.result.signature}"`));
    expect(verifyChain(path, { publicKey: key })).toMatchObject({ ok: false, reason: expect.stringMatching(/bad signature/) });
    unlinkSync(headFileOf(path));
    expect(existsSync(headFileOf(path))).toBe(false);
    expect(verifyChain(path, { publicKey: key })).toMatchObject({ ok: false, reason: expect.stringMatching(/no signed head file/) });
  });

  it('names the config key when the key is missing or not Ed25519', () => {
    expect(() => signerFromEnv('NOPE', {})).toThrow(/chain\.signing_key_env: environment variable NOPE is not set/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signerFromEnv('K', { K: rsa })).toThrow(/rsa key; an Ed25519 key is needed/);
    expect(() => signerFromEnv('K', { K: 'not a key' })).toThrow(/does not hold a PEM private key/);
  });
});
