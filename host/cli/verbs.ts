// Short verbs for agents that drive a browser from a shell: `webcap open URL`,
// `webcap click e12`, `webcap snapshot`… Each is exactly `webcap call web.*`
// (same governance, same chain entry, through the daemon). A verb without
// --session acts in its caller's current session, which the daemon keeps per
// caller (host/cli/caller-id.ts: the terminal session, or $WEBCAP_CALLER), so
// two terminals never share one. Against a warm daemon bin/webcap.js answers a
// verb through the thin client (thin-client.ts) without loading this file;
// this is the path when no daemon answers yet (it starts one) or with --no-daemon.
// Output is text (a snapshot prints as its outline); --json for programs.
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { optionsOf, print, printResult } from './args.js';
import { callerId } from './caller-id.js';
import { withExecutor } from './executor.js';
import { noSessionMessage, SESSION_OPTION, VerbInputError, VERBS } from './verb-table.js';

export function registerVerbs(program: Command): void {
  for (const verb of VERBS) {
    let cmd = program.command(verb.name).description(verb.about);
    for (const o of [SESSION_OPTION, ...(verb.options ?? [])]) cmd = cmd.option(`--${o.flag} ${o.value}`, o.about);
    for (const a of verb.args) cmd = cmd.argument(a);
    cmd.action(async (...all: unknown[]) => {
      const c = all.at(-1) as Command;
      const opts = optionsOf<{ session?: string } & Record<string, unknown>>(c);
      const args = (all.slice(0, verb.args.length) as Array<string | string[]>).flat().filter((a): a is string => typeof a === 'string');
      let params: Record<string, unknown>;
      try {
        params = { ...verb.params(args, opts), ...(opts.session ? { session: opts.session } : {}) };
      } catch (err) {
        throw err instanceof VerbInputError ? new WebcapError('invalid_params', err.message) : err;
      }
      const result = (await withExecutor(opts, (x) => x.call(verb.id, params)).catch((err: unknown) => {
        // Without --session the caller's current session was meant: say how to get one.
        if (err instanceof WebcapError && err.code === 'session_not_found' && !opts.session && verb.id !== 'web.open') throw new WebcapError('session_not_found', noSessionMessage(callerId()));
        throw err;
      })) as Record<string, unknown>;
      if (opts.json) printResult(result, true);
      else print(verb.text(result));
    });
  }
}
