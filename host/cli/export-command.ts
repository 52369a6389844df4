// `webcap chain export [CHAIN] (--plan-id ID | --session S | --last) [-o FILE]`
// and the replay flags of `webcap run PLAN --input k=v [--heal] [--update-plan]`.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { WebcapError } from '../../manifests/errors.js';
import { loadConfig } from '../config/load.js';
import type { Selection } from '../replay/chain-calls.js';
import { exportPlan } from '../replay/export.js';
import type { Heal } from '../replay/heal.js';
import { parseInputPairs } from '../replay/inputs.js';
import { rewriteSelectors } from '../replay/update-plan.js';
import type { PlanOptions } from '../plan-runner.js';
import { option, type Args } from './args.js';

export function selectionOf(args: Args): Selection {
  const planId = option(args, '--plan-id');
  const session = option(args, '--session');
  const chosen = [planId, session, args.flags.has('--last') ? true : undefined].filter((x) => x !== undefined);
  if (chosen.length !== 1) throw new WebcapError('invalid_params', 'say which run: exactly one of --plan-id ID, --session S, --last', { field: 'selection' });
  return planId ? { planId } : session ? { session } : { last: true };
}

/** `webcap chain export …`: writes the plan to -o FILE or stdout; the inputs it needs go to stderr. */
export function exportCommand(args: Args, chainFile: string | undefined): number {
  const chain = chainFile ?? loadConfig(option(args, '--config')).chain.path;
  const result = exportPlan(chain, selectionOf(args));
  const out = option(args, '-o');
  if (out) writeFileSync(out, result.plan);
  else process.stdout.write(result.plan);
  const inputs = result.inputs.map((i) => `${i.name}${i.required ? ' (required)' : ''}`).join(', ');
  process.stderr.write(`exported ${result.source}: ${result.steps} steps${result.left_out ? `, ${result.left_out} note(s) on what was left out` : ''}${inputs ? `; inputs: ${inputs}` : ''}${out ? ` → ${out}` : ''}\n`);
  return 0;
}

/**
 * The replay part of `webcap run`: --input values, --heal, and --update-plan
 * (after the run, healed selectors are written back into PLAN; PLAN.bak keeps the original).
 */
export function replayRunOptions(args: Args, planPath: string): { options: Pick<PlanOptions, 'inputs' | 'heal'>; finish(): void } {
  const heals: Heal[] = [];
  const update = args.flags.has('--update-plan');
  return {
    options: {
      inputs: parseInputPairs(args.options.get('--input') ?? []),
      heal: { force: args.flags.has('--heal'), onHeal: (h) => heals.push(h) },
    },
    finish() {
      if (!heals.length) return;
      for (const h of heals) process.stderr.write(`  healed ${h.capability} (plan:${h.line}:${h.column}): ${h.old_selector} → ${h.new_selector} by ${h.feature}\n`);
      if (!update) return;
      const source = readFileSync(planPath, 'utf8');
      copyFileSync(planPath, `${planPath}.bak`);
      writeFileSync(planPath, rewriteSelectors(source, heals));
      process.stderr.write(`  --update-plan: ${planPath} rewritten with ${heals.length} healed selector(s); the original is ${planPath}.bak\n`);
    },
  };
}
