// `webcap chain verify [FILE]` (exit 0 intact, 1 tampered, naming the first
// bad entry) and `webcap chain show [FILE]`.
import { existsSync } from 'node:fs';
import { WebcapError } from '../../manifests/errors.js';
import { showChain } from '../chain/show.js';
import { verifyChain } from '../chain/verify.js';
import { loadConfig } from '../config/load.js';

export function chainCommand(rest: string[], configPath: string | undefined): number {
  const [verb, file] = rest;
  const path = file ?? loadConfig(configPath).chain.path;
  if (!existsSync(path)) throw new WebcapError('invalid_params', `no chain file at ${path}`, { path });
  if (verb === 'verify') {
    const result = verifyChain(path);
    if (result.ok) {
      process.stdout.write(`chain intact: ${result.entries} entries in ${path}\n`);
      return 0;
    }
    process.stdout.write(`chain TAMPERED at line ${result.line} (entry seq ${result.bad_seq}): ${result.reason}\n`);
    return 1;
  }
  if (verb === 'show') {
    process.stdout.write(`${showChain(path)}\n`);
    return 0;
  }
  throw new WebcapError('invalid_params', 'usage: webcap chain verify [FILE] | webcap chain show [FILE]');
}
