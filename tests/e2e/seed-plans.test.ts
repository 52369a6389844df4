// The two reference plans, verbatim from examples/, against the bundled demo
// sites (which use the reference selectors) with www.google.com and
// www.thefork.com resolved to loopback HTTPS servers. Also the demo's own
// plans: infinite scroll on the maps-like site, and a loop over 5 pages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { readEntries } from '../../host/chain/verify.js';
import { placesFor } from '../../demo-sites/data.js';
import { startDemoSites, type DemoSites } from '../../demo-sites/serve.js';
import { testConfig, testHost } from '../helpers/host.js';

let sites: DemoSites;
let host: Host;
let config: ReturnType<typeof testConfig>;
const questions: string[] = [];
const plan = (file: string) => readFileSync(join('examples', file), 'utf8');
type Place = { name: string; rating: string; address: string; link: string };

beforeAll(async () => {
  sites = await startDemoSites();
  config = testConfig({
    browser: { domains_allowlist: ['*.google.com', '*.thefork.com', '*.demo.test'], ignore_https_errors: true, respect_robots: true },
    network: { resolve: sites.resolve },
  });
  host = testHost(config, { ask: async (q) => { questions.push(q.question ?? q.reason); return { approved: true }; } });
});
afterAll(async () => {
  await host?.close();
  await sites?.close();
});

describe('the reference plans, verbatim', () => {
  it('8.1 searches "restaurants in Paris" on www.google.com/maps (consent, JS results, scroll) and returns 20 places', async () => {
    const source = plan('seed-8.1-google-maps.rtfs');
    expect(source).toContain('(call :web.open {:url "https://www.google.com/maps"})');
    const value = await host.runPlan(source) as { items: Place[] };
    const expected = placesFor('restaurants in Paris', 20);
    expect(value.items).toHaveLength(20);     // the first batch is 10: the scroll loaded the second
    expect(value.items.map((p) => p.name)).toEqual(expected.map((p) => p.name));
    expect(value.items[0]).toEqual({ name: expected[0].name, rating: expected[0].rating, address: expected[0].address, link: `https://www.google.com/maps/place/${expected[0].id}` });
    expect(questions).toContain('Open Google Maps to search restaurants in Paris?');
    // The banner was answered (reject by default), robots.txt was asked, and the results came from the JS API.
    expect(sites.hits).toContain('www.google.com/robots.txt');
    expect(sites.hits.some((h) => h.startsWith('www.google.com/api/search?q=restaurants%20in%20Paris&offset=10'))).toBe(true);
  });

  it('8.2 searches Paris on www.thefork.com through profile:thefork and returns the first page of restaurants', async () => {
    const value = await host.runPlan(plan('seed-8.2-thefork.rtfs')) as { items: Place[] };
    const expected = placesFor('Paris', 8);
    expect(value.items.map((p) => p.name)).toEqual(expected.map((p) => p.name));
    expect(value.items[3].link).toBe(`https://www.thefork.com/restaurant/${expected[3].id}`);
    const entries = readEntries(config.chain.path);
    const consent = entries.filter((e) => e.capability === 'web.consent.handle' && e.result).pop();
    expect(consent?.result).toMatchObject({ details: { policy: 'profile:thefork', button: expect.stringContaining('didomi') } });
  });
});

describe('the demo plans', () => {
  it('maps: the profile-named plan answers the banner, searches and scrolls to 20 places', async () => {
    const items = await host.runPlan(plan('maps-search.rtfs')) as Place[];
    expect(items.map((p) => p.name)).toEqual(placesFor('restaurants in Paris', 20).map((p) => p.name));
    expect(items[19].link).toMatch(/^http:\/\/maps\.demo\.test\/maps\/place\/paris-20$/);
  });

  it('booking: a loop/recur plan pages through all 5 result pages (iframe consent banner)', async () => {
    const logs: string[] = [];
    const items = await host.runPlan(plan('booking-search.rtfs'), { onLog: (m) => logs.push(m) }) as Place[];
    expect(items).toHaveLength(40);
    expect(items.map((p) => p.name)).toEqual(placesFor('Lyon', 40).map((p) => p.name));
    expect(logs).toEqual([1, 2, 3, 4, 5].map((n) => `booking: page ${n}, 8 restaurants`));
    for (let n = 2; n <= 5; n++) expect(sites.hits).toContain(`booking.demo.test/search?q=Lyon&page=${n}`);
  });
});
