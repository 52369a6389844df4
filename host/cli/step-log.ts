// The structured "Browser Plan" log: numbered steps with ✓/✗,
// capability, target and duration, on stderr so stdout stays the result.
import type { StepLog } from '../rtfs/plan-runner.js';

export function formatStep(step: StepLog): string {
  const mark = step.ok ? '✓' : '✗';
  const target = step.target ? ` ${step.target}` : '';
  const tail = step.error ? `  ${step.error.code}: ${step.error.message}` : step.failed ? `  ${step.failed}` : '';
  return `${String(step.n).padStart(3)}. ${mark} ${step.capability}${target}  (${step.ms} ms)${tail}`;
}

export function printStep(step: StepLog): void {
  process.stderr.write(`${formatStep(step)}\n`);
}
