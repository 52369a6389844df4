// Every host-side capability, by manifest id (host.ts checks each manifest
// with provider "host" has one here, and the other way round).
import { userAsk } from '../consent/user-ask.js';
import type { HostProvider } from './types.js';

export const hostProviders: Record<string, HostProvider> = {
  'ccos.user.ask': (params, ctx) => userAsk(ctx.gate)(params as { question: string }),
};
