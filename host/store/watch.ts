// Store errors met while the sidecar asks the host mid-action (is this
// navigation allowed by robots.txt, may this request or this field go ahead).
// The sidecar refuses the effect on any error; the call that caused it then
// reports the store (budget_exceeded, store_unavailable) instead of a
// consent or robots refusal the user never gave.
import type { WebcapError } from '../../manifests/errors.js';
import type { CallContext } from '../policies/types.js';
import { storeRefusal } from './refusal.js';
import { StoreUnavailable } from './types.js';

export class StoreWatch {
  private count = 0;
  private last: StoreUnavailable | undefined;

  /** Runs an ask; a StoreUnavailable from it is noted and rethrown (the sidecar refuses on it). */
  async watch<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (err) {
      if (err instanceof StoreUnavailable) {
        this.count += 1;
        this.last = err;
      }
      throw err;
    }
  }

  mark(): number {
    return this.count;
  }

  /** The store refusal for a call that failed after mark() returned `seen`, if a store error came in between. */
  since(seen: number, call: Pick<CallContext, 'decisions' | 'capability'>): WebcapError | undefined {
    if (this.count === seen || !this.last) return undefined;
    return storeRefusal(call, 'effect', `an effect of ${call.capability}`, this.last);
  }
}
