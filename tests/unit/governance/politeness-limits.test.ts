// Crawl-delay and per-domain budgets cannot be stretched or dodged: the delay
// is capped, a wait longer than the call's timeout is refused with a retry
// time instead of slept through, and "shop.test." is "shop.test".
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CRAWL_DELAY_MS, PolitenessGate } from '../../../host/budget/politeness.js';
import { validateConfig } from '../../../host/config/load.js';
import { budgetPolicy } from '../../../host/policies/budget.js';
import { compose } from '../../../host/policies/compose.js';
import { robotsPolicy } from '../../../host/policies/robots.js';
import type { CallContext } from '../../../host/policies/types.js';
import { RobotsCache } from '../../../host/robots/robots.js';
import type { Manifest } from '../../../manifests/load.js';
import { failure } from '../../helpers/failure.js';
import { serve, send, type FixtureServer } from '../../helpers/fixture-server.js';

const call = (id: string, url: string, params: Record<string, unknown> = {}): CallContext => ({
  capability: id, manifest: { id, provider: 'sidecar', effects: [], url_param: 'url' } as unknown as Manifest,
  params, decisions: [], startedAt: 0, url: new URL(url),
});
const ok = async () => ({ ok: true });
const budgets = { per_capability: {}, per_domain: {}, per_capability_per_hour: {}, per_capability_per_day: {}, per_domain_per_hour: {}, per_domain_per_day: {}, jitter_ms: 0 };

let site: FixtureServer | undefined;
afterEach(async () => { await site?.close(); site = undefined; });

describe('Crawl-delay limits', () => {
  it(`caps Crawl-delay at ${MAX_CRAWL_DELAY_MS} ms`, async () => {
    let now = 0;
    const slept: number[] = [];
    const gate = new PolitenessGate({ budgets }, () => now, async (ms) => { slept.push(ms); now += ms; });
    gate.setMinDelay('slow.test', 86_400_000);
    await gate.wait('slow.test');
    expect(await gate.wait('slow.test')).toBe(MAX_CRAWL_DELAY_MS);
    expect(slept).toEqual([MAX_CRAWL_DELAY_MS]);
  });

  it('"Crawl-delay: 86400" from a real robots.txt: the second call fails fast with budget_exceeded and retry_after_ms, spending no token', async () => {
    site = await serve({ '/robots.txt': (_req, res) => send(res, 'User-agent: *\nCrawl-delay: 86400\nAllow: /', 200, 'text/plain') });
    const config = validateConfig({
      capabilities: { browser: { respect_robots: true, domains_allowlist: ['*.test'], default_timeout_ms: 5000 } },
      budgets: { per_capability: { 'web.open': 2 } },
      network: { resolve: { 'slow.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
    }, '/tmp');
    const politeness = new PolitenessGate(config);
    const run = compose([robotsPolicy(new RobotsCache(config), config, politeness), budgetPolicy(config, { politeness })], ok);
    const url = `http://slow.test:${site.port}/page`;
    await run(call('web.open', url));
    // A wait for the day-long delay would outlast the test's timeout: the refusal is the answer.
    const err = await failure(run(call('web.open', url)));
    expect(err.code).toBe('budget_exceeded');
    const retry = err.details.retry_after_ms as number;
    expect(retry).toBeGreaterThan(MAX_CRAWL_DELAY_MS - 1000);
    expect(retry).toBeLessThanOrEqual(MAX_CRAWL_DELAY_MS);
    // The refusal took no web.open token: another host still gets the second one.
    await run(call('web.open', `http://127.0.0.1:${site.port}/page`));
  });

  it('waits when the delay fits the call\'s timeout', async () => {
    let now = 0;
    const slept: number[] = [];
    const politeness = new PolitenessGate({ budgets }, () => now, async (ms) => { slept.push(ms); now += ms; });
    politeness.setMinDelay('slow.test', 3000);
    const policy = budgetPolicy(validateConfig({}, '/tmp'), { now: () => now, politeness });
    await policy(call('web.click', 'http://slow.test/'), ok);
    await policy(call('web.click', 'http://slow.test/', { timeout: 4000 }), ok);
    expect(slept).toEqual([3000]);
    expect((await failure(policy(call('web.click', 'http://slow.test/', { timeout: 2000 }), ok))).details.retry_after_ms).toBe(3000);
  });
});

describe('trailing dot', () => {
  it('"shop.test." counts against the per-domain budget of "shop.test"', async () => {
    const policy = budgetPolicy(validateConfig({ budgets: { per_domain: { 'shop.test': 1 } } }, '/tmp'), { now: () => 0 });
    await policy(call('web.click', 'http://shop.test/'), ok);
    const err = await failure(policy(call('web.click', 'http://shop.test./'), ok));
    expect(err.code).toBe('budget_exceeded');
    expect(err.details.budget).toBe('domain:shop.test');
  });

  it('"Shop.Test." shares the Crawl-delay gap of "shop.test"', async () => {
    let now = 0;
    const slept: number[] = [];
    const gate = new PolitenessGate({ budgets }, () => now, async (ms) => { slept.push(ms); now += ms; });
    gate.setMinDelay('shop.test.', 2000);
    await gate.wait('shop.test');
    expect(await gate.wait('Shop.Test.')).toBe(2000);
    expect(slept).toEqual([2000]);
  });
});
