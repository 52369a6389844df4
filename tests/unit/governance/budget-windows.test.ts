// Budgets over an hour and a day, embedded, with a clock the test moves:
// exact at the window edge (an action at t stops counting at t + window, not
// a millisecond earlier), retry_after_ms naming that edge, windows combined.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../host/config/load.js';
import { budgetPolicy } from '../../../host/policies/budget.js';
import type { CallContext } from '../../../host/policies/types.js';
import { WebcapError } from '../../../manifests/errors.js';
import type { Manifest } from '../../../manifests/load.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const call = (id: string, url?: string): CallContext => ({
  capability: id, manifest: { id, provider: 'sidecar', effects: [] } as unknown as Manifest, params: {}, decisions: [], startedAt: 0, url: url ? new URL(url) : undefined,
});
const ok = async () => ({ ok: true });
const attempt = (p: Promise<unknown>) => p.then(() => ({ ok: true as const }), (e: WebcapError) => ({ ok: false as const, code: e.code, budget: e.details.budget as string, retry: e.details.retry_after_ms as number, message: e.message }));

function policyWith(budgets: Record<string, unknown>, clock: { now: number }) {
  return budgetPolicy(validateConfig({ budgets }, '/tmp'), { now: () => clock.now });
}

describe('budgets per hour and per day', () => {
  it('per_capability_per_day: the 4th screenshot of a day is refused until exactly a day after the 1st', async () => {
    const clock = { now: 10_000 };
    const policy = policyWith({ per_capability_per_day: { 'web.screenshot': 3 } }, clock);
    for (const t of [10_000, 20_000, 30_000]) { clock.now = t; expect(await attempt(policy(call('web.screenshot'), ok))).toEqual({ ok: true }); }
    clock.now = 40_000;
    const refused = await attempt(policy(call('web.screenshot'), ok));
    expect(refused).toMatchObject({ ok: false, code: 'budget_exceeded', budget: 'capability:web.screenshot/day', retry: 10_000 + DAY - 40_000 });
    expect(refused.ok === false && refused.message).toContain('3 actions per day');
    clock.now = 10_000 + DAY - 1;
    expect(await attempt(policy(call('web.screenshot'), ok))).toMatchObject({ ok: false, retry: 1 });
    clock.now = 10_000 + DAY;
    expect(await attempt(policy(call('web.screenshot'), ok))).toEqual({ ok: true });
    // The 2nd of yesterday still counts for 10 s more.
    expect(await attempt(policy(call('web.screenshot'), ok))).toMatchObject({ ok: false, retry: 10_000 });
    // Other capabilities are not counted against it.
    expect(await attempt(policy(call('web.click'), ok))).toEqual({ ok: true });
  });

  it('per_domain_per_hour: counted per matching glob, exact at the hour edge', async () => {
    const clock = { now: 0 };
    const policy = policyWith({ per_domain_per_hour: { '*.shop.test': 2 } }, clock);
    expect(await attempt(policy(call('web.navigate', 'http://a.shop.test/'), ok))).toEqual({ ok: true });
    clock.now = 1_000;
    expect(await attempt(policy(call('web.navigate', 'http://b.shop.test/'), ok))).toEqual({ ok: true });
    clock.now = 2_000;
    expect(await attempt(policy(call('web.navigate', 'http://shop.test/'), ok))).toMatchObject({ ok: false, budget: 'domain:*.shop.test/hour', retry: HOUR - 2_000 });
    expect(await attempt(policy(call('web.navigate', 'http://other.test/'), ok))).toEqual({ ok: true });
    clock.now = HOUR - 1;
    expect(await attempt(policy(call('web.navigate', 'http://shop.test/'), ok))).toMatchObject({ ok: false, retry: 1 });
    clock.now = HOUR;
    expect(await attempt(policy(call('web.navigate', 'http://shop.test/'), ok))).toEqual({ ok: true });
  });

  it('every window applies at once, and a refusal by one spends no token of another', async () => {
    const clock = { now: 0 };
    const policy = policyWith({ per_capability: { 'web.fill_form': 5 }, per_capability_per_hour: { 'web.fill_form': 3 }, per_capability_per_day: { 'web.fill_form': 4 } }, clock);
    for (let i = 0; i < 3; i++) { clock.now = i * 1_000; expect(await attempt(policy(call('web.fill_form'), ok))).toEqual({ ok: true }); }
    clock.now = 5_000;
    expect(await attempt(policy(call('web.fill_form'), ok))).toMatchObject({ ok: false, budget: 'capability:web.fill_form/hour' });
    // An hour on: the hour window has room, the day has one left, and the refused attempt above took none of it.
    clock.now = HOUR + 2_000;
    expect(await attempt(policy(call('web.fill_form'), ok))).toEqual({ ok: true });
    expect(await attempt(policy(call('web.fill_form'), ok))).toMatchObject({ ok: false, budget: 'capability:web.fill_form/day', retry: DAY - HOUR - 2_000 });
  });

  it('refuses a table entry that is not a positive integer, naming the key', () => {
    for (const bad of [{ per_capability_per_day: { 'web.screenshot': 0 } }, { per_domain_per_hour: { 'a.test': 1.5 } }, { per_capability_daily: { 'web.screenshot': 5 } }]) {
      expect(() => validateConfig({ budgets: bad }, '/tmp')).toThrow(WebcapError);
    }
  });
});
