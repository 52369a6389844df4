// `webcap chain verify [FILE] [--expect-head HASH] [--public-key FILE]` (exit 0
// intact, 1 tampered, naming the first bad line; prints the entry count and
// the head hash to keep as an anchor) and `webcap chain show [FILE]`.
import { existsSync } from 'node:fs';
import { WebcapError } from '../../manifests/errors.js';
import { loadPublicKey } from '../chain/checkpoint.js';
import { showChain } from '../chain/show.js';
import { verifyChain } from '../chain/verify.js';
import { loadConfig } from '../config/load.js';

export interface ChainCommandOptions {
  /** A head hash printed by an earlier verify: it must still be in the chain. */
  expectHead?: string;
  /** An Ed25519 public key (PEM) to check the signed checkpoints with. */
  publicKey?: string;
}

export function chainCommand(rest: string[], configPath: string | undefined, options: ChainCommandOptions = {}): number {
  const [verb, file] = rest;
  const path = file ?? loadConfig(configPath).chain.path;
  if (!existsSync(path)) throw new WebcapError('invalid_params', `no chain file at ${path}`, { path });
  if (verb === 'verify') {
    if (options.expectHead !== undefined && !/^[0-9a-f]{64}$/.test(options.expectHead)) {
      throw new WebcapError('invalid_params', `--expect-head: "${options.expectHead}" is not a sha256 hash (64 hex digits)`, { field: '--expect-head' });
    }
    const publicKey = options.publicKey ? loadPublicKey(options.publicKey) : undefined;
    const result = verifyChain(path, { expectHead: options.expectHead, publicKey });
    if (result.ok) {
      const lines = [`chain intact: ${result.entries} entries in ${path}`, `head: ${result.last_hash}`];
      if (result.after_expected !== undefined) lines.push(`expected head found: ${result.after_expected} entries after it`);
      if (publicKey) lines.push(`signed checkpoints: ${result.checkpoints} valid, signed through entry #${result.signed_through ?? 0}; ${result.after_last_checkpoint} entries after the last checkpoint (not yet signed)`);
      if (result.torn_lines.length > 0) lines.push(`unfinished last line ${result.torn_lines[0]} (an interrupted write; the next writer cuts it off)`);
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    }
    const where = result.line > 0 ? `line ${result.line} (entry seq ${result.bad_seq})` : `the file as a whole`;
    process.stdout.write(`chain TAMPERED at ${where}: ${result.reason}\n`);
    return 1;
  }
  if (verb === 'show') {
    process.stdout.write(`${showChain(path)}\n`);
    return 0;
  }
  throw new WebcapError('invalid_params', 'usage: webcap chain verify [FILE] [--expect-head HASH] [--public-key FILE] | webcap chain show [FILE]');
}
