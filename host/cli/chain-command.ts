// `webcap chain verify [FILE]` (exit 0 intact, 1 tampered, naming the first
// bad entry) and `webcap chain show [FILE]`.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { showChain } from '../chain/show.js';
import { verifyChain } from '../chain/verify.js';
import { loadConfig } from '../config/load.js';
import { optionsOf } from './args.js';

function chainFile(file: string | undefined, cmd: Command): string {
  const path = file ?? loadConfig(optionsOf(cmd).config).chain.path;
  if (!existsSync(path)) throw new WebcapError('invalid_params', `no chain file at ${path}`, { path });
  return path;
}

export function registerChain(program: Command): void {
  const chain = program.command('chain').description('check or read the causal chain');
  chain.command('verify')
    .description('check the hash chain: exit 0 intact, 1 tampered (naming the first bad entry)')
    .argument('[file]', 'chain file (default: [chain] path)')
    .action((file: string | undefined, _o: unknown, cmd: Command) => {
      const path = chainFile(file, cmd);
      const result = verifyChain(path);
      if (result.ok) {
        process.stdout.write(`chain intact: ${result.entries} entries in ${path}\n`);
        return;
      }
      process.stdout.write(`chain TAMPERED at line ${result.line} (entry seq ${result.bad_seq}): ${result.reason}\n`);
      process.exitCode = 1;
    });
  chain.command('show')
    .description('print the chain as a timeline, one line per entry')
    .argument('[file]', 'chain file (default: [chain] path)')
    .action((file: string | undefined, _o: unknown, cmd: Command) => {
      process.stdout.write(`${showChain(chainFile(file, cmd))}\n`);
    });
}
