// `webcap call ID [PARAMS_JSON]`: one capability call, through the daemon
// unless --no-daemon. A web.fill_form that reports success: false is a
// failure for the shell (exit 1) with the failed fields on stderr.
import type { Command } from 'commander';
import { optionsOf, parseParams, printResult } from './args.js';
import { withExecutor } from './executor.js';
import { softFailure } from '../rtfs/soft-failure.js';

export function registerCall(program: Command): void {
  program.command('call')
    .description('make one capability call and print its result')
    .argument('<id>', 'capability id, e.g. web.open (see `webcap manifests`)')
    .argument('[params]', 'PARAMS_JSON, e.g. \'{"url":"https://example.org"}\'')
    .action(async (id: string, text: string | undefined, _o: unknown, cmd: Command) => {
      const opts = optionsOf(cmd);
      const params = parseParams(text);
      const result = await withExecutor(opts, (x) => x.call(id, params));
      printResult(result, opts.json);
      const failed = softFailure(id, result);
      if (failed) {
        process.stderr.write(`✗ ${id}: ${failed}\n`);
        process.exitCode = 1;
      }
    });
}
