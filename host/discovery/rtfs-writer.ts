// Discovery's plans as RTFS syntax trees (printed by host/rtfs/printer.ts):
// one call per line, `let` for results a later step or the return uses. A
// task's values (and the inputs filled into them) are data, always quoted; a
// step's `as` and the task's `returns` must be plain names.
import type { TaskStep } from '../../manifests/site-profile.js';
import { call, list, sym, vec, type Code } from '../rtfs/printer.js';

function taskCall(step: TaskStep): Code {
  return call(step.call, step.args ?? {});
}

/** Steps in order; a step with `as` binds its result for the rest; `returns` names what the plan returns. */
export function taskForms(steps: TaskStep[], returns: string | undefined): Code[] {
  const forms: Code[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.as) {
      forms.push(list([sym('let'), vec([sym(step.as), taskCall(step)]), ...taskForms(steps.slice(i + 1), returns)], 2));
      return forms;
    }
    forms.push(taskCall(step));
  }
  if (returns) forms.push(list([sym('return'), sym(returns)]));
  return forms;
}
