// `webcap doctor [--config FILE] [--json]`: one line per check, exit 1 when
// any fails (a warning, such as a search key not set, does not).
import type { Command } from 'commander';
import { optionsOf, print } from './args.js';

export function registerDoctor(program: Command): void {
  program.command('doctor')
    .description('check the config, Chromium, the workspace and chain, the store, search keys and the sidecar build')
    .action(async (_o: unknown, cmd: Command) => {
      const { config, json } = optionsOf(cmd);
      const { runDoctor } = await import('../ops/doctor.js');
      const report = await runDoctor(config);
      if (json) print(JSON.stringify(report));
      else {
        const width = Math.max(...report.checks.map((c) => c.name.length));
        for (const c of report.checks) print(`${c.ok ? (c.warn ? 'warn' : 'ok  ') : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail ?? ''}`.trimEnd());
      }
      process.exitCode = report.ok ? 0 : 1;
    });
}
