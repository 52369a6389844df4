// The effect gate's decisions, with a recording asker and a manual clock.
import { describe, expect, it, vi } from 'vitest';
import type { EffectConsent, NavigationCheck } from '../../../manifests/wire.js';
import { EffectGate, type RequestFacts } from '../../../sidecar/guard/effect-gate.js';
import { ANNOUNCE_CAP_MS, INPUT_GRACE_MS, SETTLE_MS } from '../../../sidecar/guard/effect-rules.js';

function setup(opts: { approve?: boolean; robotsAllow?: boolean; gateRequests?: boolean; robots?: boolean } = {}) {
  const consents: EffectConsent[] = [];
  const navigations: NavigationCheck[] = [];
  let clock = 1_000_000;
  const gate = new EffectGate({
    gateRequests: opts.gateRequests ?? true,
    robots: opts.robots ?? true,
    now: () => clock,
    ask: {
      consent: async (q) => { consents.push(q); return { approved: opts.approve ?? false }; },
      robots: async (q) => { navigations.push(q); return opts.robotsAllow === false ? { allowed: false, reason: 'matched', rule: 'Disallow: /private' } : { allowed: true, reason: 'no rule matched' }; },
    },
  });
  return { gate, consents, navigations, tick: (ms: number) => { clock += ms; } };
}

const post = (over: Partial<RequestFacts> = {}): RequestFacts => ({ method: 'POST', url: 'http://shop.test/login', resource: 'document', topLevel: true, pageUrl: 'http://shop.test/', ...over });
const get = (over: Partial<RequestFacts> = {}): RequestFacts => post({ method: 'GET', ...over });

/** A promise and whether it has settled yet. */
function settledFlag<T>(promise: Promise<T>): { promise: Promise<T>; settled: boolean } {
  const flag = { promise, settled: false };
  void promise.finally(() => { flag.settled = true; });
  return flag;
}

describe('EffectGate', () => {
  it('an action that ends while an announced request has not reached the route waits for its decision', async () => {
    const t = setup({ approve: false });
    const w = t.gate.begin('web.click', 's1');
    // The page's CDP watch saw the POST leave; the route gets it a few ms later, after the action's own wait.
    t.gate.announce('s1', 'POST', 'http://shop.test/login#frag', false);
    const ended = t.gate.end(w);
    setTimeout(() => void t.gate.decide('s1', post()), 60);
    expect((await ended)?.code).toBe('consent_denied');
    expect(t.consents).toHaveLength(1);
  });

  it('a report of a request that comes after the route took it does not hold the action', async () => {
    const t = setup({ approve: true });
    const w = t.gate.begin('web.click', 's1');
    await t.gate.decide('s1', post());                                   // the route had it first
    t.gate.announce('s1', 'POST', 'http://shop.test/login', false);     // the renderer's report trails it
    let done = false;
    void t.gate.end(w, async () => undefined, true).then(() => { done = true; });
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(true); // not held until the announcement's cap
  });

  it('with an ordered flush that answered, an action that sent nothing waits for no grace', async () => {
    const t = setup();
    const flushes: string[] = [];
    const w = t.gate.begin('web.click', 's1');
    const ended = t.gate.end(w, async () => { flushes.push('flushed'); }, true);
    let done = false;
    void ended.then(() => { done = true; });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(flushes).toEqual(['flushed']);
    expect(done).toBe(true); // settled within a couple of event-loop turns: no timer stood in between
  });

  it('an action that said its input is done is flushed once, by the flush it started, and still waits for what that flush saw', async () => {
    const t = setup({ approve: false });
    const flushes: string[] = [];
    const w = t.gate.begin('web.fill', 's1');
    // The flush answers only after the page announced a POST its handlers sent (the order the watch's session keeps).
    t.gate.inputDone('s1', async () => { flushes.push('early'); t.gate.announce('s1', 'POST', 'http://shop.test/login', false); }, true);
    setTimeout(() => void t.gate.decide('s1', post()), 30);
    const refused = await t.gate.end(w, async () => { flushes.push('late'); }, true);
    expect(flushes).toEqual(['early']);
    expect(refused?.code).toBe('consent_denied');
    expect(t.consents).toHaveLength(1);
  });

  it('an early flush that is not ordered still waits the grace; a reading action starts none', async () => {
    const t = setup();
    const w = t.gate.begin('web.type', 's1');
    t.gate.inputDone('s1', async () => undefined, false);
    const started = performance.now();
    await t.gate.end(w, undefined, true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(INPUT_GRACE_MS - 1);
    const reading = t.gate.begin('web.snapshot', 's1');
    const flushes: string[] = [];
    t.gate.inputDone('s1', async () => { flushes.push('early'); }, true);
    await t.gate.end(reading);
    expect(flushes).toEqual([]);
  });

  it('does not hold an action for requests it will not judge, and gives up on one that never arrives', async () => {
    // Timers are the gate's own clock here: the first action ends after the input grace alone, the second
    // waits out the announcement cap exactly (no wall-clock bound that a loaded machine could break).
    vi.useFakeTimers();
    try {
      const t = setup();
      const w = t.gate.begin('web.click', 's1');
      t.gate.announce('s1', 'GET', 'http://shop.test/img.png', false);      // a GET subresource: not judged
      t.gate.announce('s1', 'POST', 'data:text/plain,x', false);              // the route never sees data: URLs
      const first = settledFlag(t.gate.end(w));
      await vi.advanceTimersByTimeAsync(INPUT_GRACE_MS);
      expect(first.settled).toBe(true);
      expect(await first.promise).toBeUndefined();
      const w2 = t.gate.begin('web.click', 's1');
      t.gate.announce('s1', 'POST', 'http://shop.test/aborted', false);       // the page aborted it before the route
      const second = settledFlag(t.gate.end(w2));
      await vi.advanceTimersByTimeAsync(ANNOUNCE_CAP_MS - 1);
      expect(second.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(second.settled).toBe(true);
      expect(await second.promise).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks about a POST an action causes; a "no" refuses it and fails the action with consent_denied', async () => {
    const t = setup({ approve: false });
    const w = t.gate.begin('web.click', 's1');
    const refusal = await t.gate.decide('s1', post());
    expect(refusal?.code).toBe('consent_denied');
    expect(t.consents).toEqual([{ capability: 'web.click', session: 's1', method: 'POST', url: 'http://shop.test/login', resource: 'document', page_url: 'http://shop.test/' }]);
    const failure = await t.gate.end(w);
    expect(failure?.code).toBe('consent_denied');
    expect(failure?.details).toMatchObject({ method: 'POST', url: 'http://shop.test/login' });
  });

  it('lets an approved POST through and the action succeeds', async () => {
    const t = setup({ approve: true });
    const w = t.gate.begin('web.click', 's1');
    expect(await t.gate.decide('s1', post())).toBeUndefined();
    expect(await t.gate.end(w)).toBeUndefined();
  });

  it('never asks about GET/HEAD requests, and checks robots only for top-level navigations', async () => {
    const t = setup();
    t.gate.begin('web.click', 's1');
    expect(await t.gate.decide('s1', get({ topLevel: false, resource: 'image' }))).toBeUndefined();
    expect(await t.gate.decide('s1', get({ method: 'HEAD', topLevel: false, resource: 'fetch' }))).toBeUndefined();
    expect(t.consents).toEqual([]);
    expect(t.navigations).toEqual([]);
    expect(await t.gate.decide('s1', get())).toBeUndefined();
    expect(t.navigations).toEqual([{ session: 's1', capability: 'web.click', url: 'http://shop.test/login' }]);
  });

  it('refuses a state-changing request outside any action without asking', async () => {
    const t = setup({ approve: true });
    const refusal = await t.gate.decide('s1', post({ resource: 'fetch', topLevel: false }));
    expect(refusal?.code).toBe('consent_denied');
    expect(refusal?.reason).toMatch(/outside any action/);
    expect(t.consents).toEqual([]);
  });

  it('counts requests up to SETTLE_MS after an action ended as its own, and none after', async () => {
    const t = setup({ approve: true });
    const w = t.gate.begin('web.hover', 's1');
    await t.gate.end(w);
    t.tick(SETTLE_MS - 1);
    expect(await t.gate.decide('s1', post())).toBeUndefined();
    expect(t.consents.map((c) => c.capability)).toEqual(['web.hover']);
    t.tick(2);
    expect((await t.gate.decide('s1', post()))?.code).toBe('consent_denied');
    expect(t.consents).toHaveLength(1);
  });

  it('attributes a request to the action of its own session; web.open (no session yet) takes any', async () => {
    const t = setup({ approve: true });
    t.gate.begin('web.click', 's1');
    expect((await t.gate.decide('s2', post()))?.code).toBe('consent_denied');
    t.gate.begin('web.open');
    expect(await t.gate.decide('s3', post())).toBeUndefined();
    expect(t.consents.at(-1)?.capability).toBe('web.open');
  });

  it('does not ask twice for a submission the user approved in this action (same origin only)', async () => {
    const t = setup({ approve: false });
    const w = t.gate.begin('web.click', 's1');
    t.gate.cover('s1', 'http://shop.test/form');
    expect(await t.gate.decide('s1', post())).toBeUndefined();
    expect((await t.gate.decide('s1', post({ url: 'http://other.test/collect' })))?.code).toBe('consent_denied');
    expect(t.consents.map((c) => c.url)).toEqual(['http://other.test/collect']);
    expect((await t.gate.end(w))?.code).toBe('consent_denied');
  });

  it('refuses a disallowed top-level navigation with robots_disallowed, naming the rule', async () => {
    const t = setup({ robotsAllow: false });
    const w = t.gate.begin('web.click', 's1');
    const refusal = await t.gate.decide('s1', get({ url: 'http://shop.test/private/a' }));
    expect(refusal).toEqual({ code: 'robots_disallowed', reason: 'robots.txt disallows http://shop.test/private/a (rule "Disallow: /private")' });
    expect((await t.gate.end(w))?.code).toBe('robots_disallowed');
  });

  it('with both checks off asks nothing', async () => {
    const t = setup({ gateRequests: false, robots: false });
    expect(await t.gate.decide('s1', post())).toBeUndefined();
    expect([t.consents, t.navigations]).toEqual([[], []]);
  });

  it('fails closed when the host cannot be asked', async () => {
    const gate = new EffectGate({ gateRequests: true, robots: false, ask: { consent: async () => { throw new Error('wire closed'); }, robots: async () => ({ allowed: true, reason: '' }) } });
    const w = gate.begin('web.click', 's1');
    expect((await gate.decide('s1', post()))?.reason).toMatch(/could not ask the host \(wire closed\)/);
    expect((await gate.end(w))?.code).toBe('consent_denied');
  });

  it('an action reports only after its held requests are decided', async () => {
    let release!: (v: { approved: boolean }) => void;
    const gate = new EffectGate({ gateRequests: true, robots: false, ask: { consent: () => new Promise((r) => { release = r; }), robots: async () => ({ allowed: true, reason: '' }) } });
    const w = gate.begin('web.click', 's1');
    void gate.decide('s1', post());
    let ended = false;
    const end = gate.end(w).then((f) => { ended = true; return f; });
    await new Promise((r) => setTimeout(r, 80));
    expect(ended).toBe(false);
    release({ approved: false });
    expect((await end)?.code).toBe('consent_denied');
  });
});
