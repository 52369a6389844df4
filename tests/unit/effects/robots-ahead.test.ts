// robots.txt asked ahead of a navigation a call is about to start
// (EffectGate.expect): the decision on the request as it leaves still waits
// for that answer, refuses on its "no" and on its failure, and a request for
// another URL is asked about on its own.
import { describe, expect, it } from 'vitest';
import type { NavigationCheck } from '../../../manifests/wire.js';
import { EffectGate, type RequestFacts } from '../../../sidecar/guard/effect-gate.js';

type Answer = { allowed: boolean; reason: string; rule?: string };

function setup(answer: (q: NavigationCheck) => Promise<Answer>) {
  const asked: NavigationCheck[] = [];
  const gate = new EffectGate({
    gateRequests: true,
    robots: true,
    ask: { consent: async () => ({ approved: true }), robots: (q) => { asked.push(q); return answer(q); } },
  });
  return { gate, asked };
}

const navigation = (url: string): RequestFacts => ({ method: 'GET', url, resource: 'document', topLevel: true, pageUrl: 'http://shop.test/' });
const disallowed: Answer = { allowed: false, reason: 'matched', rule: 'Disallow: /private' };

describe('robots.txt asked ahead of a navigation', () => {
  it('the request as it leaves waits for the answer asked ahead, and is asked about once', async () => {
    let answer!: (a: Answer) => void;
    const t = setup(() => new Promise((resolve) => { answer = resolve; }));
    t.gate.begin('web.navigate', 's1');
    t.gate.expect('s1', 'http://shop.test/private/a#top');
    const decided = t.gate.decide('s1', navigation('http://shop.test/private/a'));
    let settled = false;
    void decided.then(() => { settled = true; });
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // nothing goes before the host answered
    answer(disallowed);
    expect(await decided).toMatchObject({ code: 'robots_disallowed' });
    expect(t.asked.map((q) => q.url)).toEqual(['http://shop.test/private/a']);
  });

  it('a failure of the question asked ahead refuses the navigation (fail closed)', async () => {
    const t = setup(async () => { throw new Error('host went away'); });
    const w = t.gate.begin('web.navigate', 's1');
    t.gate.expect('s1', 'http://shop.test/a');
    expect(await t.gate.decide('s1', navigation('http://shop.test/a'))).toMatchObject({ code: 'consent_denied' });
    expect((await t.gate.end(w))?.code).toBe('consent_denied');
  });

  it('a navigation to another URL (a redirect hop, a link) is asked about itself', async () => {
    const t = setup(async (q) => (q.url.includes('/private') ? disallowed : { allowed: true, reason: 'no rule matched' }));
    t.gate.begin('web.navigate', 's1');
    t.gate.expect('s1', 'http://shop.test/hop');
    expect(await t.gate.decide('s1', navigation('http://shop.test/hop'))).toBeUndefined();
    expect(await t.gate.decide('s1', navigation('http://shop.test/private/e'))).toMatchObject({ code: 'robots_disallowed' });
    expect(t.asked.map((q) => q.url)).toEqual(['http://shop.test/hop', 'http://shop.test/private/e']);
  });

  it('asks nothing ahead outside a running call, or with robots off', async () => {
    const t = setup(async () => ({ allowed: true, reason: 'no rule matched' }));
    t.gate.expect('s1', 'http://shop.test/a');
    expect(t.asked).toEqual([]);
    const off = new EffectGate({ gateRequests: true, robots: false, ask: { consent: async () => ({ approved: true }), robots: async () => { throw new Error('not asked'); } } });
    off.begin('web.navigate', 's1');
    off.expect('s1', 'http://shop.test/a');
    expect(await off.decide('s1', navigation('http://shop.test/a'))).toBeUndefined();
  });
});
