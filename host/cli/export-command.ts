// `webcap chain export [CHAIN] (--plan-id ID | --session S | --last) [-o FILE]`
// and the replay flags of `webcap run PLAN --input k=v [--heal] [--update-plan]`.
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { chainToRead } from './last-chain.js';
import { checkIdentifier } from '../../manifests/identifier.js';
import { writeBytesInWorkspace } from '../../manifests/safe-write.js';
import type { Selection } from '../replay/chain-calls.js';
import { exportPlan } from '../replay/export.js';
import type { Heal } from '../replay/heal.js';
import { parseInputPairs } from '../replay/inputs.js';
import { rewriteSelectors } from '../replay/update-plan.js';
import { optionsOf, print } from './args.js';
import type { ReplayRun } from './executor.js';

export interface SelectionOptions { planId?: string; session?: string; last?: boolean }

export function selectionOf(o: SelectionOptions): Selection {
  const chosen = [o.planId, o.session, o.last ? true : undefined].filter((x) => x !== undefined);
  if (chosen.length !== 1) throw new WebcapError('invalid_params', 'say which run: exactly one of --plan-id ID, --session S, --last', { field: 'selection' });
  return o.planId ? { planId: checkIdentifier(o.planId, '--plan-id') } : o.session ? { session: checkIdentifier(o.session, '--session') } : { last: true };
}

/** Adds the three ways of naming a run to a command. */
export function withSelection(cmd: Command): Command {
  return cmd.option('--plan-id <id>', 'the run of this plan id').option('--session <name>', 'the calls of this browser session').option('--last', 'the last run in the chain');
}

/** `webcap chain export …`: writes the plan to -o FILE or stdout; the inputs it needs go to stderr. */
export function registerChainExport(chain: Command): void {
  withSelection(chain.command('export')
    .description('write a run from the chain as a replayable RTFS plan')
    .argument('[chain]', 'chain file (default: [chain] path)'))
    .option('-o, --output <file>', 'write the plan here instead of stdout')
    .action(async (file: string | undefined, _o: unknown, cmd: Command) => {
      const o = optionsOf<SelectionOptions & { output?: string }>(cmd);
      const result = exportPlan(file ?? chainToRead(o.config), selectionOf(o));
      if (o.output) await writeBeside(o.output, result.plan, 'chain export');
      if (o.json) {
        // For programs: the plan (unless it went to -o), what it needs, where it came from.
        print(JSON.stringify({ ...(o.output ? { output: o.output } : { plan: result.plan }), source: result.source, steps: result.steps, inputs: result.inputs, left_out: result.left_out }));
        return;
      }
      if (!o.output) process.stdout.write(result.plan);
      const inputs = result.inputs.map((i) => `${i.name}${i.required ? ' (required)' : ''}`).join(', ');
      process.stderr.write(`exported ${result.source}: ${result.steps} steps${result.left_out ? `, ${result.left_out} note(s) on what was left out` : ''}${inputs ? `; inputs: ${inputs}` : ''}${o.output ? ` → ${o.output}` : ''}\n`);
    });
}

/**
 * The replay part of `webcap run`: --input values, --heal, and --update-plan
 * (after the run, healed selectors are written back into PLAN; PLAN.bak keeps the original).
 */
export function replayRun(o: { input?: string[]; heal?: boolean; updatePlan?: boolean }, planPath: string): { replay: ReplayRun; finish(): Promise<void> } {
  const heals: Heal[] = [];
  return {
    replay: { inputs: parseInputPairs(o.input ?? []), heal: o.heal === true, onHeal: (h) => heals.push(h) },
    async finish() {
      if (!heals.length) return;
      for (const h of heals) process.stderr.write(`  healed ${h.capability} (plan:${h.line}:${h.column}): ${h.old_selector} → ${h.new_selector} by ${h.feature}\n`);
      if (!o.updatePlan) return;
      const source = readFileSync(planPath, 'utf8');
      // The .bak first: if a link planted there is refused, the plan is left as it was.
      await writeBeside(`${planPath}.bak`, source, 'run --update-plan');
      await writeBeside(planPath, rewriteSelectors(source, heals), 'run --update-plan');
      process.stderr.write(`  --update-plan: ${planPath} rewritten with ${heals.length} healed selector(s); the original is ${planPath}.bak\n`);
    },
  };
}

/** A file the user named, written by the safe writer: never through a link planted at that name. */
function writeBeside(path: string, text: string, what: string): Promise<void> {
  const full = resolve(path);
  return writeBytesInWorkspace(dirname(full), `${dirname(full)}/${basename(full)}`, what, text);
}
