// Every host-side capability, by manifest id (host.ts checks each manifest
// with provider "host" has one here, and the other way round).
import { userAsk } from '../consent/user-ask.js';
import { placesSearch } from '../search/places.js';
import { webSearch } from '../search/web-search.js';
import type { HostProvider, HostProviderContext } from './types.js';
import { exportPlan } from '../replay/export.js';
import type { RawEntry } from '../replay/chain-calls.js';
import { WebcapError } from '../../manifests/errors.js';
import type { HostCapabilityId, ParamsOf } from '../../manifests/types.generated.js';
import type { CallResult } from '../policies/types.js';

/**
 * A client among several (MCP over HTTP: its `via` names it) exports only the
 * calls it made: another client's session is as if it had no calls.
 */
function callerEntries(via: Record<string, string> | undefined): ((e: RawEntry) => boolean) | undefined {
  const who = Object.entries(via ?? {}).filter(([k]) => k !== 'provider');
  if (!who.length) return undefined;
  return (e) => {
    const v = (e.via ?? {}) as Record<string, unknown>;
    return who.every(([k, value]) => v[k] === value);
  };
}

const hostProviders: { [K in HostCapabilityId]: HostProvider<K> } = {
  'ccos.user.ask': (params, ctx) => userAsk(ctx.gate)(params),
  // Readability, linkedom and turndown load on the first scrape, not at every start.
  'web.scrape': async (params, ctx) => (await import('../scrape/provider.js')).scrapeProvider(params, ctx),
  'web.search': webSearch,
  'web.places.search': placesSearch,
  // the session's recorded calls as a replayable plan.
  'web.plan_export': async (params, ctx) => {
    const session = params.session ?? ctx.call.session;
    return { ...exportPlan(ctx.config.chain.path, session ? { session } : { last: true }, callerEntries(ctx.call.via)) };
  },
};

const isHostCapability = (id: string): id is HostCapabilityId => Object.hasOwn(hostProviders, id);

/** Runs a host capability; the policy chain has validated its params against its manifest, so here they take its type. */
export function provide(id: string, params: Record<string, unknown>, ctx: HostProviderContext): Promise<CallResult> {
  if (!isHostCapability(id)) throw new WebcapError('internal', `no host provider for ${id}`);
  return (hostProviders[id] as HostProvider<HostCapabilityId>)(params as ParamsOf<HostCapabilityId>, ctx);
}
