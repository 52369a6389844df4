// The host's answers to the sidecar's effect questions: consent through the
// same gate (asked, remembered, recorded), robots through the same cache.
import { describe, expect, it } from 'vitest';
import type { ConsentQuestion } from '../../../host/consent/asker.js';
import { ConsentGate, type ConsentRecord } from '../../../host/consent/gate.js';
import { validateConfig } from '../../../host/config/load.js';
import { robotsForNavigation } from '../../../host/robots/navigation.js';
import { RobotsCache } from '../../../host/robots/robots.js';
import type { EffectConsent } from '../../../manifests/wire.js';

const request = (over: Partial<EffectConsent> = {}): EffectConsent => ({
  capability: 'web.click', session: 's1', method: 'POST', url: 'http://shop.test:8080/login?user=ada&pw=hunter2', resource: 'document', page_url: 'http://shop.test:8080/', ...over,
});

function gateWith(approve: boolean) {
  const asked: ConsentQuestion[] = [];
  const records: ConsentRecord[] = [];
  const gate = new ConsentGate({
    config: { non_interactive: 'deny', require: [], waive: [], approval_ttl_s: 60, gate_requests: true, timeout_s: 300 },
    asker: async (q) => { asked.push(q); return approve; },
    record: async (r) => { records.push(r); },
  });
  return { gate, asked, records };
}

describe('ConsentGate.confirmRequest', () => {
  it('asks with the method, origin and path (never the query), and records the answer', async () => {
    const t = gateWith(false);
    const answer = await t.gate.confirmRequest(request());
    expect(answer).toEqual({ approved: false, reason: 'the user did not approve POST http://shop.test:8080/login by web.click' });
    expect(t.asked[0].question).toBe('Allow web.click to make the page send POST "http://shop.test:8080/login" (document) from "http://shop.test:8080"?');
    expect(JSON.stringify(t.asked)).not.toContain('hunter2');
    expect(t.records).toEqual([{ capability: 'web.click', origin: 'http://shop.test:8080', selector: 'POST /login', reason: 'state_changing_request', approved: false, source: 'asker', session: 's1' }]);
  });

  it('remembers an approval for the same action, origin and endpoint', async () => {
    const t = gateWith(true);
    expect((await t.gate.confirmRequest(request())).approved).toBe(true);
    expect((await t.gate.confirmRequest(request())).approved).toBe(true);
    await t.gate.confirmRequest(request({ url: 'http://shop.test:8080/delete' }));
    expect(t.asked).toHaveLength(2);
    expect(t.records.map((r) => r.source)).toEqual(['asker', 'remembered', 'asker']);
  });
});

describe('robotsForNavigation', () => {
  const config = (respect: boolean) => validateConfig({ capabilities: { browser: { respect_robots: respect } } }, process.cwd());
  const cache = (c: ReturnType<typeof config>) => new RobotsCache(c, { fetch: async () => ({ kind: 'rules', body: 'User-agent: *\nDisallow: /private', url: 'http://shop.test/robots.txt' }) });

  it('answers from the robots cache', async () => {
    const c = config(true);
    const robots = cache(c);
    expect(await robotsForNavigation(robots, c, 'http://shop.test/private/x')).toMatchObject({ allowed: false, rule: 'Disallow: /private' });
    expect((await robotsForNavigation(robots, c, 'http://shop.test/public')).allowed).toBe(true);
  });

  it('allows everything with respect_robots = false, and non-http URLs', async () => {
    const off = config(false);
    expect(await robotsForNavigation(cache(off), off, 'http://shop.test/private/x')).toEqual({ allowed: true, reason: 'respect_robots = false' });
    const on = config(true);
    expect((await robotsForNavigation(cache(on), on, 'data:text/html,hi')).allowed).toBe(true);
  });
});
