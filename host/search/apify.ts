// Apify client for web.places.search: one synchronous actor
// run through the documented run-sync-get-dataset-items endpoint, whose
// answer is the run's dataset items. Each source is an actor; its input is a
// template filled with the query and place.
import type { PlacesSource, SearchConfig } from '../config/types.js';

export interface PlaceQuery { query: string; city?: string; country?: string; max_results: number }

// The input of compass~crawler-google-places (Apify's "Google Maps Scraper").
// Actors for Yelp and TheFork vary by publisher, so they get a neutral template
// that [search.apify.inputs.<source>] is expected to replace.
const DEFAULT_INPUTS: Record<PlacesSource, Record<string, unknown>> = {
  google_maps: { searchStringsArray: ['{query}'], locationQuery: '{location}', maxCrawledPlacesPerSearch: '{max_results}', language: 'en' },
  yelp: { searchTerms: ['{query}'], location: '{location}', maxItems: '{max_results}' },
  thefork: { query: '{query}', location: '{location}', maxItems: '{max_results}' },
};

/** POST target; the token goes in the Authorization header (also documented) so it never sits in a URL. */
export function apifyRunUrl(cfg: SearchConfig['apify'], actor: string, maxItems: number): URL {
  // Actor ids are "user~name"; the "user/name" form seen in the Store is accepted too.
  const id = encodeURIComponent(actor.replace('/', '~'));
  const url = new URL(`${cfg.endpoint.replace(/\/+$/, '')}/acts/${id}/run-sync-get-dataset-items`);
  url.searchParams.set('format', 'json');
  // maxItems caps what a pay-per-result actor may charge for.
  url.searchParams.set('maxItems', String(maxItems));
  return url;
}

export function actorInput(cfg: SearchConfig['apify'], source: PlacesSource, q: PlaceQuery): Record<string, unknown> {
  const location = [q.city, q.country].filter(Boolean).join(', ');
  const vars: Record<string, string | number> = { query: q.query, city: q.city ?? '', country: q.country ?? '', location, max_results: q.max_results };
  return fill(cfg.inputs[source] ?? DEFAULT_INPUTS[source], vars) as Record<string, unknown>;
}

// "{max_results}" alone becomes the number; placeholders inside text are substituted;
// a value left empty (no city given) is dropped rather than sent as "".
function fill(template: unknown, vars: Record<string, string | number>): unknown {
  if (typeof template === 'string') {
    const whole = /^\{(\w+)\}$/.exec(template);
    if (whole && whole[1] in vars) return vars[whole[1]];
    return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
  }
  if (Array.isArray(template)) return template.map((v) => fill(v, vars)).filter((v) => v !== '');
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) {
      const filled = fill(v, vars);
      if (filled !== '' && !(Array.isArray(filled) && filled.length === 0)) out[k] = filled;
    }
    return out;
  }
  return template;
}
