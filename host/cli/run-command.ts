// `webcap run PLAN`: run an RTFS plan (checked before its first call), step
// log on stderr, value on stdout. A ✗ step the plan went past (a fill_form
// that failed softly) still makes the exit code 1.
import type { Command } from 'commander';
import { checkPlan } from '../rtfs/check.js';
import { optionsOf, printResult, readText } from './args.js';
import { withExecutor } from './executor.js';

export function registerRun(program: Command): void {
  program.command('run')
    .description('run an RTFS plan and print its return value')
    .argument('<plan>', 'plan file (.rtfs)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const opts = optionsOf(cmd);
      const source = readText(file);
      checkPlan(source);
      let failedSteps = 0;
      const result = await withExecutor(opts, (x) => x.runPlan(source, (step) => { if (!step.ok) failedSteps += 1; }));
      printResult(result, opts.json);
      if (failedSteps) process.exitCode = 1;
    });
}
