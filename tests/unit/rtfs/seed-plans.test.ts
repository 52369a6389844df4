import { describe, expect, it } from 'vitest';
import { evaluatePlan, parsePlan, type PlanHooks } from '../../../host/rtfs/index.js';
import { GOOGLE_MAPS_PLAN, THEFORK_PLAN } from './seed-plans.js';

interface Recorded { capability: string; params: Record<string, unknown>; where: { line: number; column: number } }

function fakeHost(results: Record<string, unknown> = {}) {
  const calls: Recorded[] = [];
  const hooks: PlanHooks = {
    async call(capability, params, where) {
      calls.push({ capability, params, where });
      return results[capability] ?? { ok: true };
    },
  };
  return { calls, hooks };
}

const extracted = {
  items: [
    { name: 'Chez Janou', rating: '4.5', address: '2 Rue Roger Verlomme', link: 'https://example.org/janou' },
    { name: 'Le Comptoir', rating: null, address: '9 Carrefour de l’Odéon', link: null },
  ],
};

describe('the reference plans', () => {
  it('parses both plans into one top-level do form', () => {
    for (const plan of [GOOGLE_MAPS_PLAN, THEFORK_PLAN]) {
      const nodes = parsePlan(plan);
      expect(nodes).toHaveLength(1);
      expect(nodes[0]).toMatchObject({ kind: 'list', line: 1, column: 1 });
    }
  });

  it('8.1 Google Maps: calls each capability in order and returns what web.extract returned', async () => {
    const { calls, hooks } = fakeHost({ 'web.extract': extracted });
    const result = await evaluatePlan(GOOGLE_MAPS_PLAN, hooks);
    expect(result).toEqual(extracted);
    expect(calls.map((c) => c.capability)).toEqual([
      'ccos.user.ask', 'web.open', 'web.consent.handle', 'web.wait', 'web.fill',
      'web.keypress', 'web.wait', 'web.scroll', 'web.extract',
    ]);
    expect(calls[0]!.params).toEqual({ question: 'Open Google Maps to search restaurants in Paris?' });
    expect(calls[3]!.params).toEqual({ selector: "input[aria-label='Search Google Maps']" });
    expect(calls[4]!.params).toEqual({ selector: "input[aria-label='Search Google Maps']", text: 'restaurants in Paris' });
    expect(calls[5]!.params).toEqual({ keys: ['Enter'] });
    expect(calls[7]!.params).toEqual({ by: 2000 });
    expect(calls[8]!.params).toEqual({
      selector: '.hfpxzc',
      schema: { name: '.qBF1Pd', rating: '.MW4etd', address: '.hP61id', link: 'a[href]' },
      limit: 20,
    });
    // The `where` points at the (call ...) form in the plan text.
    expect(calls[1]!.where).toEqual({ line: 4, column: 3 });
    expect(calls[8]!.where).toEqual({ line: 11, column: 15 });
  });

  it('8.2 TheFork: same shape, profile consent policy and a click', async () => {
    const { calls, hooks } = fakeHost({ 'web.extract': extracted });
    const result = await evaluatePlan(THEFORK_PLAN, hooks);
    expect(result).toEqual(extracted);
    expect(calls.map((c) => c.capability)).toEqual([
      'ccos.user.ask', 'web.open', 'web.consent.handle', 'web.wait', 'web.fill',
      'web.click', 'web.wait', 'web.extract',
    ]);
    expect(calls[2]!.params).toEqual({ policy: 'profile:thefork' });
    expect(calls[5]!.params).toEqual({ selector: "button[type='submit']" });
    expect(calls[7]!.params).toEqual({
      selector: '.restaurant-card',
      schema: { name: '.restaurant-name', rating: '.rating-value', address: '.address', link: 'a[href]' },
      limit: 20,
    });
  });

  it('a failing call keeps its code and gains the plan position', async () => {
    const { WebcapError } = await import('../../../manifests/errors.js');
    const hooks: PlanHooks = {
      async call(capability) {
        if (capability === 'web.open') throw new WebcapError('not_allowlisted', 'www.google.com is not allowlisted', { host: 'www.google.com' });
        return {};
      },
    };
    const err = await evaluatePlan(GOOGLE_MAPS_PLAN, hooks).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebcapError);
    expect(err).toMatchObject({
      code: 'not_allowlisted',
      message: 'plan:4:3: www.google.com is not allowlisted',
      details: { host: 'www.google.com', line: 4, column: 3 },
    });
  });
});
