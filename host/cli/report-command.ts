// `webcap report [CHAIN] [--plan-id ID | --session S | --last] [-o report.html]`:
// one self-contained HTML page for a run (default: the last one).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { Selection } from '../replay/chain-calls.js';
import { collectReport } from '../report/collect.js';
import { renderReport } from '../report/html.js';
import { option, type Args } from './args.js';
import { selectionOf } from './export-command.js';

export function writeReport(chainPath: string, selection: Selection, out: string): string {
  const path = resolve(out);
  writeFileSync(path, renderReport(collectReport(chainPath, selection)));
  return path;
}

export function reportCommand(args: Args, chainFile: string | undefined): number {
  const chain = chainFile ?? loadConfig(option(args, '--config')).chain.path;
  const given = option(args, '--plan-id') ?? option(args, '--session') ?? (args.flags.has('--last') ? true : undefined);
  const path = writeReport(chain, given === undefined ? { last: true } : selectionOf(args), option(args, '-o') ?? 'report.html');
  process.stdout.write(`${path}\n`);
  return 0;
}
