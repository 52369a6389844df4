// Discovery: which site profiles answer a need, in what order,
// and the plan written from the best one — checked on the shipped profiles
// and on small profiles made for one case each.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../host/config/load.js';
import { discover, siteProfiles, writePlan } from '../../../host/discovery/index.js';
import { needMatchScore } from '../../../host/discovery/rank.js';
import { parsePlan } from '../../../host/rtfs/index.js';
import type { SiteProfile } from '../../../sidecar/profiles.js';

const config = (allow: string[]) => loadConfig({ capabilities: { browser: { domains_allowlist: allow } } });
const everywhere = config(['*']);

function profile(name: string, needs: string[], extra: Partial<SiteProfile> = {}): SiteProfile {
  return {
    name, domains: [`${name}.test`], verified: true,
    tasks: { search: { needs, inputs: { query: { type: 'string' }, url: { type: 'string', default: `http://${name}.test/` } }, steps: [{ call: 'web.open', args: { url: '{{url}}' } }, { call: 'web.fill', args: { selector: '#q', text: '{{query}}' } }, { call: 'web.extract', as: 'items', args: { selector: '.r' } }], returns: 'items' } },
    ...extra,
  };
}

describe('need matching', () => {
  it.each([
    ['restaurant.search', 'restaurant.search', 3],
    ['search.*', 'search.places', 2],
    ['restaurant.search', 'local.business.search', 1],
    ['browse.news', 'restaurant.search', 0],
  ])('%s against a declared %s scores %i', (need, declared, score) => {
    expect(needMatchScore(need, declared)).toBe(score);
  });
});

describe('discover', () => {
  it('ranks the shipped profiles: exact and verified first, unverified real-site profiles next', () => {
    const names = discover('local.business.search', { query: 'x' }, everywhere).map((c) => c.profile);
    expect(names.slice(0, 3)).toEqual(['demo-maps', 'google-maps', 'yelp']);
    expect(names).toContain('thefork');      // a restaurant.search site: the same kind of task, ranked lower
    expect(names.indexOf('thefork')).toBeGreaterThan(2);
  });

  it('answers only web-shaped needs, and refuses a malformed one', () => {
    expect(discover('payment.refund', {}, everywhere)).toEqual([]);
    expect(() => discover('rm -rf', {}, everywhere)).toThrow(expect.objectContaining({ code: 'invalid_params' }));
  });

  it('lists a site the allowlist refuses last, says why, and never writes a plan for it', () => {
    const profiles = [profile('alpha', ['restaurant.search']), profile('beta', ['restaurant.search'], { verified: false })];
    const ranked = discover('restaurant.search', { query: 'x' }, config(['beta.test']), profiles);
    expect(ranked.map((c) => [c.profile, c.allowed])).toEqual([['beta', true], ['alpha', false]]);
    expect(ranked[1].reason).toContain('alpha.test is not allowlisted');
    expect(writePlan('restaurant.search', { query: 'x' }, config(['beta.test']), profiles).candidate.profile).toBe('beta');
    expect(() => writePlan('restaurant.search', { query: 'x' }, config(['gamma.test']), profiles)).toThrow(/no usable web fallback.*alpha.*not allowlisted/);
  });

  it('names a missing input', () => {
    expect(() => writePlan('restaurant.search', {}, everywhere, [profile('alpha', ['restaurant.search'])])).toThrow(/missing input query/);
  });
});

describe('the written plan', () => {
  it('asks the user first, answers the cookie banner after opening, fills the inputs, and parses as RTFS', () => {
    const { source } = writePlan('restaurant.search', { query: 'Quai "9"' }, everywhere, [profile('alpha', ['restaurant.search'])]);
    expect(() => parsePlan(source)).not.toThrow();
    const calls = [...source.matchAll(/\(call :([\w.]+)/g)].map((m) => m[1]);
    expect(calls).toEqual(['ccos.user.ask', 'web.open', 'web.consent.handle', 'web.fill', 'web.extract']);
    expect(source).toContain('(call :web.consent.handle {:policy "auto_or_prompt"})');
    expect(source).toContain(':text "Quai \\"9\\""');
    expect(source).toMatch(/\(let \[items \(call :web\.extract \{:selector "\.r"\}\)\]\n\s+\(return items\)\)/);
  });

  it('uses the profile\'s own consent rules when it has them, and keeps a task\'s own consent step', () => {
    const withRules = profile('alpha', ['restaurant.search'], { consent: { accept: '#a', reject: '#r' } });
    expect(writePlan('restaurant.search', { query: 'x' }, everywhere, [withRules]).source).toContain('{:policy "profile:alpha"}');
    const shipped = writePlan('restaurant.search', { query: 'Paris' }, everywhere, siteProfiles());
    expect(shipped.candidate.profile).toBe('demo-booking');
    expect(shipped.source.match(/web\.consent\.handle/g)).toHaveLength(1);
  });
});
