// Screenshots for the run report: after each browser step with
// `[report] screenshots = "each_step"`, or only after a failed one with
// "on_error" (the default). Taken straight through the sidecar (not a call of
// the plan: it decides nothing and is not counted against budgets) and
// recorded as an `event` entry right after the step's own entry, so the
// report can put the picture beside the step.
import type { ChainAppend } from '../chain/entry.js';
import type { CallContext, CallResult } from '../policies/types.js';

type ShotMode = 'each_step' | 'on_error';

export interface ShotDeps {
  mode: ShotMode;
  invoke(id: string, params: Record<string, unknown>, timeoutMs: number, owner: string): Promise<CallResult>;
  append(entry: ChainAppend): Promise<unknown>;
  hasSession(session: string | undefined): boolean;
}

const SKIP = new Set(['web.close', 'web.screenshot', 'web.pdf', 'web.scrape', 'web.status', 'web.tabs']);
const NO_PAGE = new Set(['sidecar_crashed', 'browser_crashed', 'session_not_found']);
let counter = 0;

export async function withStepShot(deps: ShotDeps, call: CallContext, run: () => Promise<CallResult>): Promise<CallResult> {
  let result: CallResult;
  try {
    result = await run();
  } catch (err) {
    // A failed web.open made no page to show (its call names the session current before it); after a
    // crash there is no page either, and asking would start a new sidecar.
    const code = (err as { code?: string }).code ?? '';
    if (call.capability !== 'web.open' && !NO_PAGE.has(code)) await shoot(deps, call, true);
    throw err;
  }
  if (deps.mode === 'each_step') await shoot(deps, call, false, result);
  return result;
}

async function shoot(deps: ShotDeps, call: CallContext, failed: boolean, result?: CallResult): Promise<void> {
  if (call.manifest.provider !== 'sidecar' || SKIP.has(call.capability)) return;
  const session = typeof result?.session === 'string' ? result.session : call.session;
  if (!session || !deps.hasSession(session)) return;
  const name = `report/step-${Date.now()}-${++counter}.jpg`;
  try {
    const shot = await deps.invoke('web.screenshot', { session, path: name, format: 'jpeg', quality: 60 }, 10_000, call.owner ?? 'library');
    await deps.append({ kind: 'event', plan_id: call.planId ?? null, session, result: { event: 'step_screenshot', step: call.capability, path: shot.path, failed } });
  } catch { /* a page that cannot be shot (crashed, closed) leaves the step without a picture */ }
}
