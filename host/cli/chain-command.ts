// `webcap chain verify [FILE] [--expect-head HASH] [--public-key FILE]` (exit 0
// intact, 1 tampered, naming the first bad line; prints the entry count and
// the head hash to keep as an anchor) and `webcap chain show [FILE]`.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { loadPublicKey } from '../chain/checkpoint.js';
import { showChain } from '../chain/show.js';
import { readEntries, verifyChain } from '../chain/verify.js';
import { chainToRead } from './last-chain.js';
import { optionsOf } from './args.js';
import { registerChainExport } from './export-command.js';

function chainFile(file: string | undefined, cmd: Command): string {
  const path = file ?? chainToRead(optionsOf(cmd).config);
  if (!existsSync(path)) throw new WebcapError('invalid_params', `no chain file at ${path}`, { path });
  return path;
}

export function registerChain(program: Command): void {
  const chain = program.command('chain').description('check, read or export the causal chain');
  chain.command('verify')
    .description('check the hash chain: exit 0 intact (printing the entry count and head hash), 1 tampered (naming the first bad entry)')
    .argument('[file]', 'chain file (default: [chain] path)')
    .option('--expect-head <hash>', 'a head hash printed by an earlier verify: fails if the chain was cut or rewritten before it')
    .option('--public-key <file>', 'Ed25519 public key (PEM) to check the signed checkpoints with')
    .action((file: string | undefined, _o: unknown, cmd: Command) => {
      const o = optionsOf<{ expectHead?: string; publicKey?: string }>(cmd);
      const path = chainFile(file, cmd);
      if (o.expectHead !== undefined && !/^[0-9a-f]{64}$/.test(o.expectHead)) {
        throw new WebcapError('invalid_params', `--expect-head: "${o.expectHead}" is not a sha256 hash (64 hex digits)`, { field: '--expect-head' });
      }
      const publicKey = o.publicKey ? loadPublicKey(o.publicKey) : undefined;
      const result = verifyChain(path, { expectHead: o.expectHead, publicKey });
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ chain: path, ...result, ...(result.ok ? {} : { tampered: true }) })}\n`);
        if (!result.ok) process.exitCode = 1;
        return;
      }
      if (result.ok) {
        const lines = [`chain intact: ${result.entries} entries in ${path}`, `head: ${result.last_hash}`];
        if (result.after_expected !== undefined) lines.push(`expected head found: ${result.after_expected} entries after it`);
        if (publicKey) lines.push(`signed checkpoints: ${result.checkpoints} valid, signed through entry #${result.signed_through ?? 0}; ${result.after_last_checkpoint} entries after the last checkpoint (not yet signed)`);
        if (result.torn_lines.length > 0) lines.push(`unfinished last line ${result.torn_lines[0]} (an interrupted write; the next writer cuts it off)`);
        process.stdout.write(`${lines.join('\n')}\n`);
        return;
      }
      const where = result.line > 0 ? `line ${result.line} (entry seq ${result.bad_seq})` : 'the file as a whole';
      process.stdout.write(`chain TAMPERED at ${where}: ${result.reason}\n`);
      process.exitCode = 1;
    });
  chain.command('show')
    .description('print the chain as a timeline, one line per entry')
    .argument('[file]', 'chain file (default: [chain] path)')
    .action((file: string | undefined, _o: unknown, cmd: Command) => {
      const path = chainFile(file, cmd);
      // --json: the entries themselves, one JSON array (what a script would parse the file into).
      process.stdout.write(`${optionsOf(cmd).json ? JSON.stringify(readEntries(path)) : showChain(path)}\n`);
    });
  registerChainExport(chain);
}
