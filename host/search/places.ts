// web.places.search: places (name, rating, address, link, …) from an Apify
// actor per source — Google Maps, Yelp, TheFork — with the same cache,
// breaker, quota and stale fallback as web.search.
import { ownerOf } from '../cache/owner.js';
import { WebcapError } from '../../manifests/errors.js';
import { cacheKey } from '../cache/key.js';
import type { PlacesSource } from '../config/types.js';
import type { CallResult } from '../policies/types.js';
import type { HostProvider } from '../providers/types.js';
import { actorInput, apifyRunUrl, type PlaceQuery } from './apify.js';
import { fallbackOptions } from './context.js';
import { readKey } from './credentials.js';
import { answer } from './fallback.js';
import { requestJson } from './http.js';
import { parsePlaces, type Place } from './places-items.js';

interface Stored { places: Place[]; timestamp: string }

export const placesSearch: HostProvider<'web.places.search'> = async (params, ctx) => {
  const started = performance.now();
  const cfg = ctx.config.search.apify;
  const source = params.source ?? 'google_maps';
  const q: PlaceQuery = { query: params.query.trim(), city: params.city?.trim() || undefined, country: params.country?.trim() || undefined, max_results: params.max_results ?? cfg.max_results };
  if (!q.query) throw new WebcapError('invalid_params', 'web.places.search: field "query" must not be blank', { field: 'query' });
  const actor = cfg.actors[source];
  if (!actor) {
    throw new WebcapError('capability_disabled', `web.places.search: no Apify actor configured for "${source}": set [search.apify.actors] ${source} = "user~actor-name"`, { source, reason: 'missing_actor' });
  }
  const input = actorInput(cfg, source, q);
  const timeoutMs = params.timeout ?? cfg.timeout_ms;
  const scrub = (text: string) => ctx.redactor.redactString(text);
  let token = '';
  const a = await answer<Stored>([{
    source,
    provider: 'apify',
    cacheKey: cacheKey('places', { source, actor, input, ...ownerOf(ctx.call) }),
    limits: cfg,
    ready() { token = readKey('apify', cfg.token_env, '[search.apify] token_env', ctx.redactor, 'web.places.search'); },
    async fetch() {
      const timestamp = new Date().toISOString();
      const body = await requestJson({ provider: 'apify', method: 'POST', url: apifyRunUrl(cfg, actor, q.max_results), headers: { authorization: `Bearer ${token}` }, body: input, timeoutMs, scrub });
      return { places: parsePlaces(body, q.max_results), timestamp };
    },
  }], fallbackOptions(ctx, 'web.places.search', params.cache !== false, true));
  const result: CallResult = {
    query: q.query, city: q.city ?? null, country: q.country ?? null, source,
    places: a.value.places, total: a.value.places.length,
    search_time_ms: Math.round(performance.now() - started), cached: a.cached, timestamp: a.value.timestamp,
  };
  if (a.stale) Object.assign(result, { stale: true, age_ms: a.age_ms });
  if (a.failed.length) result.failed_sources = a.failed;
  return result;
};
