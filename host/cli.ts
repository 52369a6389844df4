// The `webcap` command. One catch point: a failure prints
// `error: <code>: <message>` (and JSON with --json) and exits 1; a command
// line commander cannot parse exits 2 (it has printed why, with a suggestion).
import { CommanderError } from 'commander';
import { toWebcapError } from '../manifests/errors.js';
import { buildProgram } from './cli/program.js';
import { NO_TTY_HINT } from './cli/hints.js';

const QUIET_EXITS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);


async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = QUIET_EXITS.has(err.code) ? 0 : 2;
      return;
    }
    const e = toWebcapError(err);
    process.stderr.write(`error: ${e.code}: ${e.message}\n`);
    if (e.code === 'consent_denied' && !(process.stdin.isTTY && process.stderr.isTTY)) process.stderr.write(NO_TTY_HINT);
    if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message, details: e.details } })}\n`);
    process.exitCode = 1;
  }
}

await main(process.argv.slice(2));
