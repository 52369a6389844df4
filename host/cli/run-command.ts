// `webcap run PLAN [--input k=v …] [--heal] [--update-plan]`: run an RTFS plan
// (checked before its first call), step log on stderr, value on stdout. A ✗
// step the plan went past (a fill_form that failed softly) still makes the
// exit code 1. --input fills {{name}} placeholders; --heal looks for elements
// by their recorded fingerprint when a selector finds nothing, and
// --update-plan writes the healed selectors back (PLAN.bak keeps the original).
import type { Command } from 'commander';
import { checkPlan } from '../rtfs/check.js';
import { loadConfig } from '../config/load.js';
import { collect, optionsOf, printResult } from './args.js';
import { withExecutor } from './executor.js';
import { readPlanFile } from './plan-file.js';
import { replayRun } from './export-command.js';

export function registerRun(program: Command): void {
  program.command('run')
    .description('run an RTFS plan and print its return value')
    .argument('<plan>', 'plan file (.rtfs)')
    .option('--input <name=value>', 'a value for the plan\'s {{name}} placeholder (repeatable)', collect)
    .option('--heal', 'heal every selector that finds nothing from its recorded fingerprint (exported plans heal by default)')
    .option('--update-plan', 'after the run, write healed selectors back into the plan file (keeps PLAN.bak)')
    .option('--console', 'serve the console (watch, answer questions with evidence, Stop) and print its URL on stderr')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const opts = optionsOf<{ input?: string[]; heal?: boolean; updatePlan?: boolean }>(cmd);
      const { max_bytes: maxBytes } = loadConfig(opts.config).plans;
      const source = readPlanFile(file, maxBytes);
      checkPlan(source, undefined, maxBytes);
      const { replay, finish } = replayRun(opts, file);
      let failedSteps = 0;
      const result = await withExecutor(opts, (x) => x.runPlan(source, (step) => { if (!step.ok) failedSteps += 1; }, replay), 'run').finally(finish);
      printResult(result, opts.json);
      if (failedSteps) process.exitCode = 1;
    });
}
