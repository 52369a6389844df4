import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderState } from '../../../host/search/provider-state.js';
import { tempDir } from '../../helpers/host.js';

const at = (iso: string) => Date.parse(iso);
function state(start: string, breaker = { failures: 3, openMs: 300_000 }) {
  let t = at(start);
  const s = new ProviderState(join(tempDir(), 'provider-state.json'), breaker, () => t);
  return { s, set: (iso: string) => { t = at(iso); }, advance: (ms: number) => { t += ms; } };
}
const code = async (p: Promise<unknown>) => p.then(() => 'ok', (e: { code: string; details: { reason?: string; budget?: string } }) => e.details.reason ?? e.details.budget ?? e.code);

describe('ProviderState quotas', () => {
  it('a daily quota refills at the next UTC midnight, and says how long until then', async () => {
    const { s, set } = state('2026-03-10T23:59:00Z');
    await s.begin('serpapi', { daily_quota: 1 });
    const err = await s.begin('serpapi', { daily_quota: 1 }).catch((e: { details: Record<string, number> }) => e);
    expect((err as { details: Record<string, number> }).details.retry_after_ms).toBe(60_000);
    set('2026-03-11T00:00:00Z');
    expect(await code(s.begin('serpapi', { daily_quota: 1 }))).toBe('ok');
  });

  it('a monthly quota refills on the 1st (UTC), across a year end too', async () => {
    const { s, set } = state('2026-12-31T12:00:00Z');
    await s.begin('exa', { monthly_quota: 1 });
    const err = await s.begin('exa', { monthly_quota: 1 }).catch((e: { details: Record<string, unknown> }) => e);
    expect((err as { details: Record<string, unknown> }).details).toMatchObject({ budget: 'monthly_quota', retry_after_ms: 12 * 3_600_000 });
    set('2027-01-01T00:00:01Z');
    expect(await code(s.begin('exa', { monthly_quota: 1 }))).toBe('ok');
  });

  it('counts each provider apart, and quota 0 refuses at once', async () => {
    const { s } = state('2026-05-05T10:00:00Z');
    await s.begin('serpapi', { daily_quota: 1 });
    expect(await code(s.begin('exa', { daily_quota: 1 }))).toBe('ok');
    expect(await code(s.begin('apify', { daily_quota: 0 }))).toBe('daily_quota');
  });
});

describe('ProviderState breaker', () => {
  it('opens on the third failure in a row, not before; a success resets the streak', async () => {
    const { s } = state('2026-05-05T10:00:00Z');
    await s.failed('exa');
    await s.failed('exa');
    await s.succeeded('exa');
    await s.failed('exa');
    expect(await s.failed('exa')).toEqual({ opened: false });
    expect(await s.failed('exa')).toEqual({ opened: true });
    expect(await code(s.begin('exa', {}))).toBe('circuit_open');
  });

  it('closes after the pause; one more failure reopens it', async () => {
    const { s, advance } = state('2026-05-05T10:00:00Z');
    for (let i = 0; i < 3; i++) await s.failed('serpapi');
    advance(299_999);
    expect(await code(s.begin('serpapi', {}))).toBe('circuit_open');
    advance(1);
    expect(await code(s.begin('serpapi', {}))).toBe('ok');
    expect(await s.failed('serpapi')).toEqual({ opened: true });
  });

  it('a Retry-After pauses the provider that long even after one failure', async () => {
    const { s, advance } = state('2026-05-05T10:00:00Z');
    expect(await s.failed('serpapi', 20_000)).toEqual({ opened: true });
    advance(19_000);
    expect(await code(s.begin('serpapi', {}))).toBe('circuit_open');
    advance(1_000);
    expect(await code(s.begin('serpapi', {}))).toBe('ok');
  });

  it('a refused begin() costs no quota', async () => {
    const { s, advance } = state('2026-05-05T10:00:00Z');
    for (let i = 0; i < 3; i++) await s.failed('serpapi');
    await code(s.begin('serpapi', { daily_quota: 1 }));
    advance(300_000);
    expect(await code(s.begin('serpapi', { daily_quota: 1 }))).toBe('ok');
  });
});
