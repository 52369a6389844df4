// The options every command understands (registered once on the program, so
// `webcap call … --config=FILE -y` and `webcap --config FILE call …` both work)
// and small readers shared by the command files.
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { MiB, readTextSafelySync } from '../files/safe-read.js';

export interface GlobalOptions {
  config?: string;
  json?: boolean;
  yes?: boolean;
  /** false with --no-daemon. */
  daemon: boolean;
  /** webcap run --console: serve the console and print its URL on stderr. */
  console?: boolean;
}

/** The command's own options merged with the program's (commander's optsWithGlobals). */
export function optionsOf<T extends object>(cmd: Command): T & GlobalOptions {
  return cmd.optsWithGlobals() as T & GlobalOptions;
}

/** For repeatable options (`--input a=1 --input b=2`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function parseParams(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new WebcapError('invalid_params', `PARAMS_JSON is not valid JSON: ${(err as Error).message}`);
  }
}

/** A plan file the user named (a link is theirs to choose): a regular file, bounded, errors that never quote it. */
export function readText(path: string): string {
  return readTextSafelySync(path, { what: 'plan file', maxBytes: 64 * MiB, followLinks: true });
}

export function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

export function printResult(value: unknown, json: boolean | undefined): void {
  print(json ? JSON.stringify(value ?? null) : JSON.stringify(value ?? null, null, 2));
}
