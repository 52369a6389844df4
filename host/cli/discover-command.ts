// `webcap discover NEED [--input k=v ...] [--run] [--json] [--yes]`: rank the
// site profiles that answer a need, write a plan from the best one, and with
// --run run it. Without --run, stdout is the plan (save it and edit it);
// the ranking goes to stderr.
import { WebcapError } from '../../manifests/errors.js';
import type { Host } from '../host.js';
import type { Args } from './args.js';
import { printStep } from './step-log.js';

export async function discoverCommand(args: Args, hostFor: () => Host): Promise<number> {
  const need = args.positional[1];
  if (!need) throw new WebcapError('invalid_params', 'webcap discover: missing NEED (e.g. restaurant.search)');
  const inputs = Object.fromEntries((args.options.get('--input') ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new WebcapError('invalid_params', `--input expects key=value, got "${pair}"`, { field: 'input' });
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
  const host = hostFor();
  try {
    const written = host.plan(need, inputs);
    const json = args.flags.has('--json');
    for (const c of written.candidates) process.stderr.write(`${c === written.candidate ? '→' : ' '} ${c.profile} (task ${c.task}, score ${c.score.toFixed(1)}): ${c.reason}\n`);
    if (!args.flags.has('--run')) {
      process.stdout.write(json ? `${JSON.stringify({ candidates: written.candidates, plan: written.source })}\n` : written.source);
      return 0;
    }
    process.stderr.write(written.source);
    const result = await host.runPlan(written.source, { onStep: printStep, onLog: (m) => process.stderr.write(`  log: ${m}\n`) });
    process.stdout.write(`${JSON.stringify(json ? { candidates: written.candidates, plan: written.source, result } : result ?? null, null, json ? 0 : 2)}\n`);
    return 0;
  } finally {
    await host.close();
  }
}
