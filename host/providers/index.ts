// Every host-side capability, by manifest id (host.ts checks each manifest
// with provider "host" has one here, and the other way round).
import { userAsk } from '../consent/user-ask.js';
import { placesSearch } from '../search/places.js';
import { webSearch } from '../search/web-search.js';
import type { HostProvider } from './types.js';
import { exportPlan } from '../replay/export.js';
import type { RawEntry } from '../replay/chain-calls.js';

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

export const hostProviders: Record<string, HostProvider> = {
  'ccos.user.ask': (params, ctx) => userAsk(ctx.gate)(params as { question: string }),
  // Readability, linkedom and turndown load on the first scrape, not at every start.
  'web.scrape': async (params, ctx) => (await import('../scrape/provider.js')).scrapeProvider(params, ctx),
  'web.search': webSearch,
  'web.places.search': placesSearch,
  // the session's recorded calls as a replayable plan.
  'web.plan_export': async (params, ctx) => {
    const session = (params.session as string | undefined) ?? ctx.call.session;
    return { ...exportPlan(ctx.config.chain.path, session ? { session } : { last: true }, callerEntries(ctx.call.via)) };
  },
};
