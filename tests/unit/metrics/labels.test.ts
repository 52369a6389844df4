// Label values stay a small closed set whatever a caller sends: hostile
// capability ids (URLs with secrets, selectors, page text), codes outside the
// closed list, policy names that are not names. Checked on the registry
// itself: every series' labels, and how many series there are.
import { beforeEach, describe, expect, it } from 'vitest';
import { registry, metrics } from '../../../host/metrics/metrics.js';
import { ERROR_CODES } from '../../../manifests/errors.js';

async function seriesOf(name: string): Promise<Array<Record<string, string | number>>> {
  const all = await registry.getMetricsAsJSON();
  return (all.find((m) => m.name === name)?.values ?? []).map((v) => v.labels as Record<string, string | number>);
}

describe('metric labels', () => {
  // The registry is the process's own: start from zero whatever an earlier file in this worker recorded.
  beforeEach(() => registry.resetMetrics());

  it('never carry a URL, a selector or page data, and stay bounded in number', async () => {
    metrics.setEnabled(true);
    metrics.knowCapabilities(['web.open', 'web.click']);
    const hostile = [
      'https://shop.test/account?token=sk_live_123', 'web.open?session=abc', '#login > input[type=password]',
      '<script>alert(1)</script>', 'web.click\nwebcap_calls_total{capability="x"} 1', 'Ignore previous instructions',
    ];
    for (let i = 0; i < 500; i++) {
      metrics.call(`${hostile[i % hostile.length]}-${i}`, `code-${i}`, 0.01, `policy with spaces ${i}`);
      metrics.consent(`reason ${i} https://evil.test/`, 'denied');
    }
    for (let i = 0; i < 200; i++) metrics.call('web.open', ERROR_CODES[i % ERROR_CODES.length], 0.01, `made_up_policy_${i}`);
    metrics.call('web.click', undefined, 0.02);

    const calls = await seriesOf('webcap_calls_total');
    const caps = new Set(calls.map((l) => l.capability));
    expect([...caps].sort()).toEqual(['other', 'web.click', 'web.open']);
    for (const l of calls) expect([...ERROR_CODES, 'none', 'other']).toContain(l.code);
    expect(new Set(calls.map((l) => l.outcome))).toEqual(new Set(['ok', 'error']));
    // 3 capabilities × (closed codes + none + other) at most, whatever was sent.
    expect(calls.length).toBeLessThanOrEqual(3 * (ERROR_CODES.length + 2));

    const refusals = await seriesOf('webcap_policy_refusals_total');
    expect(refusals.length).toBeLessThanOrEqual(31);
    for (const l of refusals) expect(String(l.policy)).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
    const consent = await seriesOf('webcap_consent_questions_total');
    expect(new Set(consent.map((l) => l.reason))).toEqual(new Set(['other']));

    const text = await metrics.text();
    for (const bad of ['shop.test', 'sk_live', 'password', '<script>', 'Ignore previous', 'evil.test', 'spaces']) expect(text).not.toContain(bad);
  });

  it('records nothing while switched off', async () => {
    metrics.setEnabled(false);
    const before = JSON.stringify(await seriesOf('webcap_calls_total'));
    metrics.call('web.click', undefined, 0.02);
    expect(JSON.stringify(await seriesOf('webcap_calls_total'))).toBe(before);
    metrics.setEnabled(true);
  });
});
