// What every governance path does when the store cannot answer: refuse the
// call (budget_exceeded, details.reason store_unavailable) and say so in the
// call's decisions, so the chain shows which check could not be made. A
// budget, a politeness gap, a robots.txt answer or a remembered approval that
// cannot be read or kept is never taken as "allowed".
import { WebcapError } from '../../manifests/errors.js';
import type { CallContext } from '../policies/types.js';
import { StoreUnavailable } from './types.js';

/** The refusal for a store error met while checking `what` (the chain records it on the call). */
export function storeRefusal(call: Pick<CallContext, 'decisions'> | undefined, policy: string, what: string, err: StoreUnavailable): WebcapError {
  call?.decisions.push({ policy, decision: 'denied', reason: `store unavailable: ${err.reason}`, details: { reason: 'store_unavailable' } });
  return new WebcapError('budget_exceeded', `${what} cannot be checked: ${err.message}; refused rather than let an unchecked action through`, { reason: 'store_unavailable', budget: 'store', policy });
}

/** Runs a policy step; a StoreUnavailable from it becomes storeRefusal(), anything else passes through. */
export async function orRefuse<T>(call: Pick<CallContext, 'decisions'> | undefined, policy: string, what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof StoreUnavailable) throw storeRefusal(call, policy, what, err);
    throw err;
  }
}
