// `webcap discover NEED [--input k=v ...] [--run] [--json] [--yes]`: rank the
// site profiles that answer a need, write a plan from the best one, and with
// --run run it. Without --run, stdout is the plan (save it and edit it);
// the ranking goes to stderr.
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { collect, optionsOf } from './args.js';
import { printStep } from './step-log.js';

export function registerDiscover(program: Command): void {
  program.command('discover')
    .description('write (and with --run, run) a plan for a need from the site profiles')
    .argument('<need>', 'a need such as restaurant.search')
    .option('--input <key=value>', 'an input of the need (repeatable)', collect, [])
    .option('--run', 'run the plan it writes')
    .action(async (need: string, _o: unknown, cmd: Command) => {
      const opts = optionsOf<{ input: string[]; run?: boolean }>(cmd);
      const inputs = Object.fromEntries(opts.input.map((pair) => {
        const at = pair.indexOf('=');
        if (at <= 0) throw new WebcapError('invalid_params', `--input expects key=value, got "${pair}"`, { field: 'input' });
        return [pair.slice(0, at), pair.slice(at + 1)];
      }));
      const { createHost } = await import('../host.js');
      const host = createHost({ config: opts.config, yes: opts.yes });
      try {
        const written = host.plan(need, inputs);
        for (const c of written.candidates) process.stderr.write(`${c === written.candidate ? '→' : ' '} ${c.profile} (task ${c.task}, score ${c.score.toFixed(1)}): ${c.reason}\n`);
        if (!opts.run) {
          process.stdout.write(opts.json ? `${JSON.stringify({ candidates: written.candidates, plan: written.source })}\n` : written.source);
          return;
        }
        process.stderr.write(written.source);
        const result = await host.runPlan(written.source, { onStep: printStep, onLog: (m) => process.stderr.write(`  log: ${m}\n`) });
        process.stdout.write(`${JSON.stringify(opts.json ? { candidates: written.candidates, plan: written.source, result } : result ?? null, null, opts.json ? 0 : 2)}\n`);
      } finally {
        await host.close();
      }
    });
}
