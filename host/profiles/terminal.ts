// Where profiles meet the call path, innermost (after every policy and the
// audit's view of the params): web.open {profile} gets the decrypted storage
// as an internal parameter, and web.close of a profile's session brings the
// storage back for saving. Neither ever reaches a result or the chain.
import { orRefuse } from '../store/refusal.js';
import type { CallContext, CallResult } from '../policies/types.js';
import type { Profiles } from './manager.js';
import type { StorageState } from './state.js';

type Terminal = (call: CallContext) => Promise<CallResult>;

export function withProfiles(profiles: Profiles, next: Terminal): Terminal {
  return async (call) => {
    if (call.capability === 'web.open' && typeof call.params.profile === 'string') {
      const { profile, ...rest } = call.params;
      const loaded = profiles.load(profile as string);
      const result = await next({ ...call, params: { ...rest, storage_state: loaded.state, keep_state: true } });
      await profiles.opened(result.session as string, profile as string, loaded.kept, loaded.note, call.planId);
      return result;
    }
    const session = (call.params.session as string | undefined) ?? call.session;
    if (call.capability === 'web.close' && profiles.has(session)) {
      const { storage_state: state, ...result } = await next({ ...call, params: { ...call.params, storage_state: true } });
      // A store that cannot say whether saving was approved: not saved, and the call says why.
      await orRefuse(call, 'consent', 'the approval to save the profile', () => profiles.closed(session!, state as StorageState | undefined, call.planId));
      return result;
    }
    return next(call);
  };
}

/** Closing a profile's session outside a call (plan end, host close): the same save path. */
export async function closeWithProfile(profiles: Profiles, session: string, invoke: (params: Record<string, unknown>) => Promise<Record<string, unknown>>, planId?: string): Promise<Record<string, unknown>> {
  if (!profiles.has(session)) return invoke({ session });
  const { storage_state: state, ...result } = await invoke({ session, storage_state: true });
  await profiles.closed(session, state as StorageState | undefined, planId);
  return result;
}
