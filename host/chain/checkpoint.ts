// Signed checkpoints (modelled on AWS CloudTrail digest files and Certificate
// Transparency signed tree heads): every N entries, and when a writer closes,
// the chain gets a `checkpoint` entry holding an Ed25519 signature over
// (count, head hash, time). The latest one is also written beside the chain as
// `<chain>.head.json`, so cutting the file back past it shows. The hash chain
// alone detects edits; a signature is what a rewriter without the key cannot
// redo, so a consistent rewrite (every hash recomputed) shows too.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { WebcapError } from '../../manifests/errors.js';
import { writeFileSafelySync } from '../../manifests/safe-write.js';
import { readTextSafelySync } from '../files/safe-read.js';

/** Default spacing of checkpoints, in entries ([chain] checkpoint_every). */
export const CHECKPOINT_EVERY = 1000;

export interface Checkpoint {
  /** How many entries the signature covers (the seq of the head entry). */
  count: number;
  /** The hash of entry #count. */
  head: string;
  ts: string;
  /** sha256 of the public key (SPKI DER), first 16 hex: which key signed. */
  key_id: string;
  /** Ed25519 signature (base64) over signedText(). */
  signature: string;
}

export interface Signer {
  keyId: string;
  sign(count: number, head: string): Checkpoint;
}

function signedText(c: Pick<Checkpoint, 'count' | 'head' | 'ts'>): string {
  return `webcap-chain-checkpoint\n${c.count}\n${c.head}\n${c.ts}\n`;
}

export function keyIdOf(key: KeyObject): string {
  const spki = (key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('hex').slice(0, 16);
}

/** The signer named by `[chain] signing_key_env`: an Ed25519 private key (PEM) in that environment variable. */
export function signerFromEnv(envName: string, env: NodeJS.ProcessEnv = process.env): Signer {
  const pem = env[envName];
  const bad = (why: string) => new WebcapError('invalid_params', `chain.signing_key_env: ${why}`, { key: 'chain.signing_key_env', env: envName });
  if (!pem) throw bad(`environment variable ${envName} is not set (it must hold an Ed25519 private key in PEM)`);
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw bad(`${envName} does not hold a PEM private key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw bad(`${envName} holds a ${key.asymmetricKeyType} key; an Ed25519 key is needed`);
  const keyId = keyIdOf(key);
  return {
    keyId,
    sign(count, head) {
      const ts = new Date().toISOString();
      const signature = sign(null, Buffer.from(signedText({ count, head, ts })), key).toString('base64');
      return { count, head, ts, key_id: keyId, signature };
    },
  };
}

export function loadPublicKey(file: string): KeyObject {
  let key: KeyObject;
  // The user named this file: a link is theirs to choose. Its content never reaches the message.
  const pem = readTextSafelySync(file, { what: '--public-key', maxBytes: 64 * 1024, followLinks: true });
  try {
    key = createPublicKey(pem);
  } catch {
    throw new WebcapError('invalid_params', `--public-key ${file}: not a PEM public key`, { path: file });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new WebcapError('invalid_params', `--public-key ${file}: an Ed25519 public key is needed, not ${key.asymmetricKeyType}`, { path: file });
  return key;
}

export function checkSignature(c: Checkpoint, key: KeyObject): boolean {
  try {
    return verify(null, Buffer.from(signedText(c)), key, Buffer.from(c.signature, 'base64'));
  } catch {
    return false;
  }
}

export function headFileOf(chainPath: string): string {
  return `${chainPath}.head.json`;
}

/** Replaces `<chain>.head.json` atomically and durably, through the safe writer (never through a link). */
export function writeHeadFile(chainPath: string, c: Checkpoint): void {
  writeFileSafelySync(headFileOf(chainPath), `${JSON.stringify(c)}\n`, { durable: true, what: 'causal chain' });
}

export function asCheckpoint(v: unknown): Checkpoint | null {
  const c = v as Partial<Checkpoint> | null;
  if (!c || typeof c !== 'object') return null;
  if (typeof c.count !== 'number' || typeof c.head !== 'string' || typeof c.ts !== 'string' || typeof c.signature !== 'string') return null;
  return c as Checkpoint;
}
