// Which button each web.consent.handle policy presses, as a table: the
// default leans to reject, the config can flip auto to accept, and per_site
// follows the site profile.
import { describe, expect, it } from 'vitest';
import { decide, preference } from '../../../sidecar/consent/decide.js';
import type { SiteProfile } from '../../../sidecar/profiles.js';

const both = { known: true, accept: true, reject: true };
const acceptOnly = { known: true, accept: true, reject: false };
const generic = { known: false, accept: true, reject: true };
const site = (d?: 'accept' | 'reject'): SiteProfile => ({ name: 's', domains: ['s.test'], consent: { accept: '#a', default: d } });

describe('consent policy table', () => {
  it.each([
    ['auto', both, 'reject', 'reject'],
    ['auto', acceptOnly, 'reject', 'accept'],
    ['auto', both, 'accept', 'accept'],
    ['auto', { known: true, accept: false, reject: true }, 'accept', 'reject'],
    ['reject', acceptOnly, 'reject', 'reject'],
    ['accept', both, 'reject', 'accept'],
    ['prompt', both, 'reject', 'ask'],
    ['auto_or_prompt', both, 'reject', 'reject'],
    ['auto_or_prompt', generic, 'reject', 'ask'],
    ['profile:thefork', both, 'reject', 'reject'],
    ['profile:thefork', both, 'accept', 'accept'],
  ] as const)('%s on %j preferring %s → %s', (policy, banner, prefer, expected) => {
    expect(decide(policy, banner, prefer)).toBe(expected);
  });

  it('auto_accept_cookies sets the preference', () => {
    expect(preference(false, site('accept'))).toBe('reject');
    expect(preference(undefined, undefined)).toBe('reject');
    expect(preference(true, site('reject'))).toBe('accept');
    expect(preference('per_site', site('accept'))).toBe('accept');
    expect(preference('per_site', site())).toBe('reject');
    expect(preference('per_site', undefined)).toBe('reject');
  });
});
