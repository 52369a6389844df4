// web.places.search through the whole host, with the
// production Apify client talking to a loopback server that replays Apify's
// documented run-sync-get-dataset-items answers and errors.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { providerServer, type ProviderServer } from '../fixtures/search/provider-server.js';
import { KEYS, records, searchHost, setKeys, type SearchHostOptions } from '../fixtures/search/search-host.js';
import { failure } from '../helpers/failure.js';

let p: ProviderServer;
const hosts: Host[] = [];
const host = (o: SearchHostOptions = {}) => { const h = searchHost(p, o); hosts.push(h); return h; };
type Place = Record<string, unknown>;

beforeAll(async () => { p = await providerServer(); });
afterAll(async () => { await p?.close(); });
beforeEach(() => { p.requests.length = 0; setKeys(); });
afterEach(async () => { await Promise.all(hosts.splice(0).map((h) => h.close())); });

describe('web.places.search', () => {
  it('runs the Google Maps actor synchronously and lists places with name, rating, address and link', async () => {
    const r = await host().call('web.places.search', { query: 'restaurants', city: 'Paris', country: 'France' });
    const [req] = p.of('apify');
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/apify/v2/acts/compass~crawler-google-places/run-sync-get-dataset-items');
    expect(Object.fromEntries(req.query)).toEqual({ format: 'json', maxItems: '20' });
    expect(req.headers.authorization).toBe(`Bearer ${KEYS.apify}`);
    expect(req.body).toEqual({ searchStringsArray: ['restaurants'], locationQuery: 'Paris, France', maxCrawledPlacesPerSearch: 20, language: 'en' });
    expect(r).toMatchObject({ query: 'restaurants', city: 'Paris', country: 'France', source: 'google_maps', total: 3, cached: false });
    const places = r.places as Place[];
    expect(places[0]).toEqual({
      position: 1, name: 'Le Comptoir du Relais', rating: 4.3, reviews_count: 3741,
      address: "9 Carrefour de l'Odéon, 75006 Paris, France",
      link: 'https://www.google.com/maps/search/?api=1&query=Le%20Comptoir%20du%20Relais&query_place_id=ChIJ7zc8s9lx5kcR3vXc2f7G5h0',
      website: 'https://www.hotel-paris-relais-saint-germain.com/', phone: '+33 1 44 27 07 97',
      category: 'French restaurant', price: '€€', location: { lat: 48.8520955, lng: 2.3388408 },
    });
    expect(places[2]).toMatchObject({ name: 'Septime', rating: null, website: null, location: null });
  });

  it('uses the actor and input template configured for a source, e.g. Yelp', async () => {
    p.queue('apify', { body: 'apify-yelp.json' });
    const h = host({ apify: { actors: { yelp: 'someone/yelp-scraper' }, inputs: { yelp: { searchTerms: ['{query}'], locations: ['{city}, {country}'], searchLimit: '{max_results}' } } } });
    const r = await h.call('web.places.search', { query: 'bakery', city: 'San Francisco', country: 'US', source: 'yelp', max_results: 5 });
    const [req] = p.of('apify');
    expect(req.path).toBe('/apify/v2/acts/someone~yelp-scraper/run-sync-get-dataset-items');
    expect(req.body).toEqual({ searchTerms: ['bakery'], locations: ['San Francisco, US'], searchLimit: 5 });
    expect((r.places as Place[])[0]).toEqual({
      position: 1, name: 'Tartine Bakery', rating: 4.2, reviews_count: 8760, address: '600 Guerrero St, 94110, San Francisco, US',
      link: 'https://www.yelp.com/biz/tartine-bakery-san-francisco', website: null, phone: '(415) 487-2600',
      category: 'Bakeries', price: '$$', location: { lat: 37.76139, lng: -122.42405 },
    });
  });

  it('a source without an actor, or no token: capability_disabled, nothing sent', async () => {
    const e = await failure(host().call('web.places.search', { query: 'pasta', city: 'Rome', source: 'thefork' }));
    expect(e.code).toBe('capability_disabled');
    expect(e.message).toContain('[search.apify.actors] thefork');
    setKeys({});
    const t = await failure(host().call('web.places.search', { query: 'pasta', city: 'Rome' }));
    expect([t.code, t.details.env]).toEqual(['capability_disabled', 'WEBCAP_TEST_APIFY_TOKEN']);
    expect(p.of('apify')).toHaveLength(0);
  });

  it('Apify\'s error answers: 401 and 404 → provider_error, 408 → timeout, 429 → budget_exceeded, junk → malformed', async () => {
    const h = host();
    const call = () => failure(h.call('web.places.search', { query: 'tacos', city: 'Austin', cache: false }));
    p.queue('apify', { status: 401, body: 'apify-error-401.json' });
    const unauth = await call();
    expect([unauth.code, unauth.details.status, unauth.message]).toEqual(['provider_error', 401, 'apify refused the credentials (HTTP 401): Authentication token is not valid. (token-not-valid)']);
    p.queue('apify', { status: 404, body: 'apify-error-404.json' });
    const missing = await call();
    expect([missing.code, missing.details.status]).toEqual(['provider_error', 404]);
    expect(missing.message).toContain('Actor was not found');
    // Breaker: those two failures count; a success in between resets the streak.
    await h.call('web.places.search', { query: 'tacos', city: 'Austin', cache: false });
    p.queue('apify', { status: 408, body: { error: { type: 'run-timeout-exceeded', message: 'Actor run exceeded the timeout of 300 seconds' } } });
    expect((await call()).code).toBe('timeout');
    p.queue('apify', { status: 429, body: { error: { type: 'rate-limit-exceeded', message: 'You have exceeded the rate limit' } }, headers: { 'retry-after': '2' } });
    const limited = await call();
    expect([limited.code, limited.details.retry_after_ms]).toEqual(['budget_exceeded', 2000]);
  });

  it('a non-list answer is malformed; three failures in a row open the breaker', async () => {
    const h = host();
    const call = () => failure(h.call('web.places.search', { query: 'ramen', city: 'Tokyo', cache: false }));
    p.queue('apify', { body: { data: 'not items' } }, { status: 500, body: 'oops' }, { status: 503, body: 'down' });
    expect((await call()).details.reason).toBe('malformed_response');
    expect((await call()).details.status).toBe(500);
    expect((await call()).details.status).toBe(503);
    const open = await call();
    expect([open.code, open.details.reason]).toEqual(['provider_error', 'circuit_open']);
    expect(p.of('apify')).toHaveLength(3);
  });

  it('caches runs (cached: true, no new run), serves a stale entry when the run fails, and spends a daily quota', async () => {
    const h = host({ cache: { ttl_s: 1 }, apify: { daily_quota: 2 } });
    const first = await h.call('web.places.search', { query: 'restaurants', city: 'Paris' });
    const again = await h.call('web.places.search', { query: 'restaurants', city: 'Paris' });
    expect([first.cached, again.cached]).toEqual([false, true]);
    expect(again.places).toEqual(first.places);
    expect(p.of('apify')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1100));
    p.queue('apify', { status: 500, body: 'down' });
    const stale = await h.call('web.places.search', { query: 'restaurants', city: 'Paris' });
    expect(stale).toMatchObject({ cached: true, stale: true, places: first.places });
    const spent = await failure(h.call('web.places.search', { query: 'bars', city: 'Paris' }));
    expect([spent.code, spent.details.budget]).toEqual(['budget_exceeded', 'daily_quota']);
    expect(p.of('apify')).toHaveLength(2);
  });

  it('keeps the token out of the chain and the log', async () => {
    const h = host();
    await h.call('web.places.search', { query: 'coffee', city: 'Oslo' });
    p.queue('apify', { status: 400, body: { error: { type: 'invalid-input', message: `token ${KEYS.apify} cannot run this actor` } } });
    const e = await failure(h.call('web.places.search', { query: 'tea', city: 'Oslo' }));
    expect(JSON.stringify(e)).not.toContain(KEYS.apify);
    await h.close();
    const { chain, log } = records(h);
    expect(chain).toContain('web.places.search');
    expect(chain).not.toContain(KEYS.apify);
    expect(log).not.toContain(KEYS.apify);
  });
});
