// Site profiles: every shipped profile validates, a bad one stops loading with
// the file and field named, and pages find their profile by domain glob.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebcapError } from '../../../manifests/errors.js';
import { projectRoot } from '../../../manifests/load.js';
import { loadProfiles } from '../../../host/profiles/site-profiles.js';
import { failureSync } from '../../helpers/failure.js';
import { profileFor, profileNamed, type SiteProfile } from '../../../sidecar/profiles.js';

const shipped = join(projectRoot(), 'site-profiles');
const good = { name: 'x', domains: ['x.test'], rate: { min_delay_ms: 10 } };
let dir: string | undefined;

afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

function loadOne(profile: unknown, file = 'x.json', raw?: string): SiteProfile[] {
  dir = mkdtempSync(join(tmpdir(), 'profiles-'));
  writeFileSync(join(dir, file), raw ?? JSON.stringify(profile));
  return loadProfiles(dir);
}

const errorOf = (profile: unknown, file = 'x.json', raw?: string): WebcapError => failureSync(() => loadOne(profile, file, raw));

describe('shipped profiles', () => {
  const profiles = loadProfiles(shipped);

  it('all validate, and the real sites say their selectors are unverified', () => {
    expect(profiles.map((p) => p.name).sort()).toEqual(['demo-booking', 'demo-maps', 'google-maps', 'thefork', 'yelp']);
    for (const name of ['google-maps', 'thefork', 'yelp']) expect(profileNamed(profiles, name).verified).toBe(false);
  });

  it('give the demo sites the same selectors as the sites they imitate', () => {
    expect(profileNamed(profiles, 'demo-maps').selectors).toEqual(profileNamed(profiles, 'google-maps').selectors);
    expect(profileNamed(profiles, 'demo-booking').selectors).toEqual(profileNamed(profiles, 'thefork').selectors);
    expect(profileNamed(profiles, 'google-maps').selectors?.search_box).toBe("input[aria-label='Search Google Maps']");
    expect(profileNamed(profiles, 'demo-booking').consent).toMatchObject({ iframe: 'iframe#consent-frame', accept: '#cm-accept', reject: '#cm-reject' });
  });

  it('declare a search task with the needs discovery looks for', () => {
    expect(profileNamed(profiles, 'demo-maps').tasks?.search.needs).toEqual(['local.business.search', 'restaurant.search', 'search.places']);
    expect(profileNamed(profiles, 'demo-booking').tasks?.search.needs).toEqual(['restaurant.search', 'booking.search']);
    for (const p of profiles) expect(p.tasks?.search.inputs?.query.type).toBe('string');
  });

  it('are matched by domain glob, "*.x" also matching x itself', () => {
    expect(profileFor(profiles, 'https://www.google.com/maps')?.name).toBe('google-maps');
    expect(profileFor(profiles, 'https://consent.google.com/ml')?.name).toBe('google-maps');
    expect(profileFor(profiles, 'https://thefork.com/')?.name).toBe('thefork');
    expect(profileFor(profiles, 'http://booking.demo.test:8080/search?q=x')?.name).toBe('demo-booking');
    expect(profileFor(profiles, 'http://MAPS.demo.test/')?.name).toBe('demo-maps');
    expect(profileFor(profiles, 'https://google.com.evil.test/')).toBeUndefined();
    expect(profileFor(profiles, 'not a url')).toBeUndefined();
  });

  it('profileNamed lists the known names when one is missing', () => {
    expect(() => profileNamed(profiles, 'nope')).toThrow(/no site profile named "nope" \(have: demo-booking, demo-maps/);
  });
});

describe('validation errors name the file and the field', () => {
  it.each([
    [{ ...good, rate: { min_delay_ms: 1.5 } }, /x\.json: field "rate\.min_delay_ms" must be integer/, 'rate.min_delay_ms'],
    [{ name: 'x' }, /x\.json: field "domains" is required/, 'domains'],
    [{ ...good, domains: [] }, /field "domains" must NOT have fewer than 1 items/, 'domains'],
    [{ ...good, consent: { accept: '#a', rejct: '#r' } }, /unknown field "consent\.rejct"/, 'consent.rejct'],
    [{ ...good, consent: { default: 'maybe' } }, /field "consent\.default" must be equal to one of the allowed values: "accept", "reject"/, 'consent.default'],
    [{ ...good, selectors: { search_box: 3 } }, /field "selectors\.search_box" must be string/, 'selectors.search_box'],
    [{ ...good, tasks: { search: { needs: ['x.search'], steps: [{ call: 'web.open', arg: {} }] } } }, /unknown field "tasks\.search\.steps\[0\]\.arg"/, 'tasks.search.steps[0].arg'],
    [{ ...good, tasks: { search: { needs: ['x.search'], steps: [{ call: 'open' }] } } }, /field "tasks\.search\.steps\[0\]\.call" must match pattern/, 'tasks.search.steps[0].call'],
    [{ ...good, name: 'y' }, /x\.json: field "name" must be "x" \(the file name\), not "y"/, 'name'],
  ])('%j', (profile, message, field) => {
    const err = errorOf(profile);
    expect(err).toBeInstanceOf(WebcapError);
    expect(err.code).toBe('invalid_params');
    expect(err.message).toMatch(message);
    expect(err.message.startsWith(`${basename(dir!)}/x.json: `)).toBe(true);
    expect(err.details).toMatchObject({ field });
  });

  it('reports broken JSON with the file name', () => {
    const err = errorOf(undefined, 'x.json', '{ "name": "x", ');
    expect(err.code).toBe('invalid_params');
    expect(err.message).toMatch(/x\.json: truncated/);
    expect(err.message).not.toContain("name");
  });

  it('loads a good profile and skips schema.json', () => {
    dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    writeFileSync(join(dir, 'x.json'), JSON.stringify(good));
    writeFileSync(join(dir, 'schema.json'), '{"not": "a profile"}');
    expect(loadProfiles(dir).map((p) => p.name)).toEqual(['x']);
  });

  it('a missing folder means no profiles', () => {
    expect(loadProfiles(join(tmpdir(), 'no-such-profiles-dir'))).toEqual([]);
  });
});
