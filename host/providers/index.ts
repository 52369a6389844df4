// Every host-side capability, by manifest id (host.ts checks each manifest
// with provider "host" has one here, and the other way round).
import { userAsk } from '../consent/user-ask.js';
import { placesSearch } from '../search/places.js';
import { webSearch } from '../search/web-search.js';
import type { HostProvider } from './types.js';
import { exportPlan } from '../replay/export.js';

export const hostProviders: Record<string, HostProvider> = {
  'ccos.user.ask': (params, ctx) => userAsk(ctx.gate)(params as { question: string }),
  // Readability, linkedom and turndown load on the first scrape, not at every start.
  'web.scrape': async (params, ctx) => (await import('../scrape/provider.js')).scrapeProvider(params, ctx),
  'web.search': webSearch,
  'web.places.search': placesSearch,
  // issue 14: the session's recorded calls as a replayable plan.
  'web.plan_export': async (params, ctx) => {
    const session = (params.session as string | undefined) ?? ctx.call.session;
    return { ...exportPlan(ctx.config.chain.path, session ? { session } : { last: true }) };
  },
};
