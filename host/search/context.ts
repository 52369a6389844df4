// What both search capabilities need from the host: the shared cache, the
// provider state (file or Redis), and a scrubber for text coming back from providers.
import { cacheFor } from '../cache/index.js';
import type { WebcapConfig } from '../config/types.js';
import type { HostProviderContext } from '../providers/types.js';
import type { FallbackOptions } from './fallback.js';
import { storeFor } from '../store/index.js';
import { ProviderState } from './provider-state.js';

const states = new Map<string, ProviderState>();

export function providerState(config: WebcapConfig): ProviderState {
  const { breaker_failures: failures, breaker_open_s: openS } = config.search;
  const id = JSON.stringify([config.workspace.path, failures, openS, config.store]);
  let state = states.get(id);
  if (!state) states.set(id, (state = new ProviderState(storeFor(config).providerState(config.workspace.path), { failures, openMs: openS * 1000 })));
  return state;
}

/** cache=false skips reads (and the stale fallback); the fresh answer still refreshes the entry. */
export function fallbackOptions(ctx: HostProviderContext, capability: string, useCache: boolean, staleFallback: boolean): FallbackOptions {
  return { cache: cacheFor(ctx.config), readCache: useCache, staleFallback: staleFallback && useCache, state: providerState(ctx.config), log: ctx.log, capability };
}
