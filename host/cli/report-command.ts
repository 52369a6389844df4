// `webcap report [CHAIN] [--plan-id ID | --session S | --last] [-o report.html]`:
// one self-contained HTML page for a run (default: the last one).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { chainToRead } from './last-chain.js';
import type { Selection } from '../replay/chain-calls.js';
import { collectReport } from '../report/collect.js';
import { renderReport } from '../report/html.js';
import { optionsOf } from './args.js';
import { selectionOf, withSelection, type SelectionOptions } from './export-command.js';

export function writeReport(chainPath: string, selection: Selection, out: string): string {
  const path = resolve(out);
  writeFileSync(path, renderReport(collectReport(chainPath, selection)));
  return path;
}

export function registerReport(program: Command): void {
  withSelection(program.command('report')
    .description('write a run (default: the last) as one self-contained HTML report')
    .argument('[chain]', 'chain file (default: [chain] path)'))
    .option('-o, --output <file>', 'where to write it', 'report.html')
    .action((file: string | undefined, _o: unknown, cmd: Command) => {
      const o = optionsOf<SelectionOptions & { output: string }>(cmd);
      const given = o.planId !== undefined || o.session !== undefined || o.last;
      const path = writeReport(file ?? chainToRead(o.config), given ? selectionOf(o) : { last: true }, o.output);
      process.stdout.write(`${path}\n`);
    });
}
