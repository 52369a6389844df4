// Budgets and politeness as pure policies: table cases, an injected clock.
import { describe, expect, it } from 'vitest';
import { PolitenessGate } from '../../../host/budget/politeness.js';
import { validateConfig } from '../../../host/config/load.js';
import { budgetPolicy } from '../../../host/policies/budget.js';
import type { CallContext } from '../../../host/policies/types.js';
import { WebcapError } from '../../../manifests/errors.js';
import type { Manifest } from '../../../manifests/load.js';

const manifest = (id: string, provider: 'sidecar' | 'host' = 'sidecar') => ({ id, provider, effects: [] }) as unknown as Manifest;
const call = (id: string, url?: string, provider: 'sidecar' | 'host' = 'sidecar'): CallContext => ({
  capability: id, manifest: manifest(id, provider), params: {}, decisions: [], startedAt: 0, url: url ? new URL(url) : undefined,
});
const ok = async () => ({ ok: true });

async function code(p: Promise<unknown>): Promise<string> {
  try { await p; return 'ok'; } catch (e) { return (e as WebcapError).code; }
}

describe('budgets', () => {
  it('refuses the 61st action in a minute, with retry_after_ms, and allows it once the minute has passed', async () => {
    let now = 1_000;
    const policy = budgetPolicy(validateConfig({}, '/tmp'), { now: () => now });
    for (let i = 0; i < 60; i++) { now += 100; await policy(call('web.click'), ok); }
    const err = await policy(call('web.click'), ok).catch((e: WebcapError) => e);
    expect(err).toBeInstanceOf(WebcapError);
    expect((err as WebcapError).code).toBe('budget_exceeded');
    expect((err as WebcapError).details.retry_after_ms).toBe(60_000 - (now - 1_100));
    now = 1_100 + 60_000;
    expect(await code(policy(call('web.click'), ok))).toBe('ok');
  });

  it('does not count host-side capabilities (ccos.user.ask) against the browser budget', async () => {
    const policy = budgetPolicy(validateConfig({ capabilities: { browser: { max_actions_per_minute: 1 } } }, '/tmp'), { now: () => 0 });
    for (let i = 0; i < 5; i++) expect(await code(policy(call('ccos.user.ask', undefined, 'host'), ok))).toBe('ok');
    // The browser's one action a minute is still there after five asks, and it is one.
    expect(await code(policy(call('web.click'), ok))).toBe('ok');
    expect(await code(policy(call('web.click'), ok))).toBe('budget_exceeded');
  });

  it('applies a per-capability budget to a host-side capability (web.search) without touching the browser budget', async () => {
    const policy = budgetPolicy(validateConfig({ capabilities: { browser: { max_actions_per_minute: 1 } }, budgets: { per_capability: { 'web.search': 2 } } }, '/tmp'), { now: () => 0 });
    expect(await code(policy(call('web.search', undefined, 'host'), ok))).toBe('ok');
    expect(await code(policy(call('web.search', undefined, 'host'), ok))).toBe('ok');
    expect(await code(policy(call('web.search', undefined, 'host'), ok))).toBe('budget_exceeded');
    expect(await code(policy(call('web.click'), ok))).toBe('ok');
  });

  it('applies per-capability and per-domain buckets, and a refusal burns no global token', async () => {
    const cfg = validateConfig({ capabilities: { browser: { max_actions_per_minute: 3 } }, budgets: { per_capability: { 'web.click': 1 }, per_domain: { '*.shop.test': 1 } } }, '/tmp');
    const policy = budgetPolicy(cfg, { now: () => 0 });
    expect(await code(policy(call('web.click'), ok))).toBe('ok');
    const capErr = await policy(call('web.click'), ok).catch((e: WebcapError) => e);
    expect((capErr as WebcapError).details.budget).toBe('capability:web.click');
    expect(await code(policy(call('web.navigate', 'http://shop.test/'), ok))).toBe('ok'); // *.x matches x itself
    const domErr = await policy(call('web.navigate', 'http://a.shop.test/'), ok).catch((e: WebcapError) => e);
    expect((domErr as WebcapError).details.budget).toBe('domain:*.shop.test');
    expect(await code(policy(call('web.scroll'), ok))).toBe('ok'); // third global token still there
    expect(await code(policy(call('web.scroll'), ok))).toBe('budget_exceeded');
  });
});

describe('politeness', () => {
  it('waits (never fails) for the crawl-delay between actions on one host', async () => {
    let now = 0;
    const slept: number[] = [];
    const gate = new PolitenessGate({ budgets: { per_capability: {}, per_domain: {}, per_capability_per_hour: {}, per_capability_per_day: {}, per_domain_per_hour: {}, per_domain_per_day: {}, jitter_ms: 0 } }, () => now, async (ms) => { slept.push(ms); now += ms; });
    gate.setMinDelay('slow.test', 2000);
    expect(await gate.wait('slow.test')).toBe(0);
    now += 500;
    expect(await gate.wait('slow.test')).toBe(1500);
    expect(await gate.wait('other.test')).toBe(0);
    expect(slept).toEqual([1500]);
  });

  it('adds jitter up to jitter_ms', async () => {
    const gate = new PolitenessGate({ budgets: { per_capability: {}, per_domain: {}, per_capability_per_hour: {}, per_capability_per_day: {}, per_domain_per_hour: {}, per_domain_per_day: {}, jitter_ms: 50 } }, () => 0, async () => undefined);
    const waited = await gate.wait('a.test');
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(waited).toBeLessThan(50);
  });
});
