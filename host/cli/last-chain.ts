// Which chain a command given no FILE reads. Commands that write a chain (run,
// call, demo) leave its absolute path in ./.webcap/last-chain; chain show,
// verify, export and report without FILE and without a chosen config
// (--config or $WEBCAP_CONFIG) read that one, so "run with a config, then
// report" reads the chain the run wrote.
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';

const POINTER = join('.webcap', 'last-chain');

export function rememberChain(chainPath: string): void {
  try {
    mkdirSync('.webcap', { recursive: true });
    const tmp = `${POINTER}.${process.pid}.tmp`;
    writeFileSync(tmp, `${resolve(chainPath)}\n`, { flag: 'wx' });
    renameSync(tmp, POINTER);
  } catch {
    // A folder we cannot write to only loses the convenience, never the run.
  }
}

/** The config the user chose for this command, if any (an empty $WEBCAP_CONFIG chooses none). */
const chosenConfig = (option?: string) => option ?? (process.env.WEBCAP_CONFIG || undefined);

export function chainToRead(configOption?: string): string {
  const chosen = chosenConfig(configOption);
  if (chosen !== undefined) return loadConfig(chosen).chain.path;
  const remembered = rememberedChain();
  return remembered ?? loadConfig(undefined).chain.path;
}

function rememberedChain(): string | undefined {
  try {
    const info = lstatSync(POINTER);
    if (!info.isFile() || info.size > 4096) return undefined; // ours is one short line; anything else was not written by us
    const path = readFileSync(POINTER, 'utf8').trim();
    return isAbsolute(path) && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
