// `webcap report [CHAIN] [--plan-id ID | --session S | --last] [-o report.html] [--json]`:
// one self-contained HTML page for a run (default: the last one), written
// through the safe writer. With --json, stdout is the report's model instead
// of the path (screenshots named, not inlined).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeFileSafelySync } from '../../manifests/safe-write.js';
import { loadConfig } from '../config/load.js';
import { chainToRead } from './last-chain.js';
import type { Selection } from '../replay/chain-calls.js';
import { collectReport, type ReportData } from '../report/collect.js';
import { renderReport } from '../report/html.js';
import { optionsOf, print } from './args.js';
import { selectionOf, withSelection, type SelectionOptions } from './export-command.js';

function writeReport(chainPath: string, selection: Selection, out: string, workspace: string): { path: string; data: ReportData } {
  const path = resolve(out);
  const data = collectReport(chainPath, selection, workspace);
  writeFileSafelySync(path, renderReport(data), { what: 'webcap report' });
  return { path, data };
}

/** The model as --json prints it: screenshots by path and whether they were embedded, never their bytes. */
function reportJson(path: string, data: ReportData): Record<string, unknown> {
  const steps = data.steps.map(({ screenshot, ...s }) => ({ ...s, ...(screenshot ? { screenshot: { path: screenshot.path, embedded: Boolean(screenshot.base64), ...(screenshot.not_embedded ? { not_embedded: screenshot.not_embedded } : {}) } } : {}) }));
  return { path, title: data.title, chain: data.chainPath, started: data.started ?? null, steps, plans: data.plans, invalid_entries: data.invalid };
}

export function registerReport(program: Command): void {
  withSelection(program.command('report')
    .description('write a run (default: the last) as one self-contained HTML report')
    .argument('[chain]', 'chain file (default: [chain] path)'))
    .option('-o, --output <file>', 'where to write it', 'report.html')
    .action((file: string | undefined, _o: unknown, cmd: Command) => {
      const o = optionsOf<SelectionOptions & { output: string }>(cmd);
      const given = o.planId !== undefined || o.session !== undefined || o.last;
      const config = loadConfig(o.config);
      const { path, data } = writeReport(file ?? chainToRead(o.config), given ? selectionOf(o) : { last: true }, o.output, config.workspace.path);
      print(o.json ? JSON.stringify(reportJson(path, data)) : path);
    });
}
