// `webcap demo [--serve]`: the bundled offline demo.
import type { Command } from 'commander';

export function registerDemo(program: Command): void {
  program.command('demo')
    .description('run the bundled demo (offline): demo sites on loopback, three plans, a fresh causal chain')
    .option('--serve', 'only serve the demo sites (until Ctrl-C)')
    .action(async (opts: { serve?: boolean }) => {
      const { runDemo } = await import('../demo/demo.js');
      process.exitCode = await runDemo({ serveOnly: opts.serve });
    });
}
