// Runs policies outermost-first; the last `next` is the terminal handler
// (forward to the sidecar, or a host-side capability).
import type { CallContext, CallResult, Policy } from './types.js';

export function compose(policies: Policy[], terminal: (call: CallContext) => Promise<CallResult>) {
  return function run(call: CallContext): Promise<CallResult> {
    let index = -1;
    const dispatch = (i: number): Promise<CallResult> => {
      if (i <= index) return Promise.reject(new Error('next() called twice'));
      index = i;
      const policy = policies[i];
      return policy ? policy(call, () => dispatch(i + 1)) : terminal(call);
    };
    return dispatch(0);
  };
}
