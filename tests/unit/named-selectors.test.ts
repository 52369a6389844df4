import { describe, expect, it } from 'vitest';
import { resolveSelector } from '../../sidecar/selectors.js';
import type { SiteProfile } from '../../manifests/site-profile.js';
import { failure } from '../helpers/failure.js';

const maps = { name: 'demo-maps', domains: ['maps.demo.test'], selectors: { result_item: '.hfpxzc' } } as SiteProfile;

describe('named selectors', () => {
  it('a @name becomes the profile CSS of the page domain', () => {
    expect(resolveSelector('@result_item', [maps], 'http://maps.demo.test/maps')).toBe('.hfpxzc');
  });

  it('a @name may lead a Playwright chain: the rest is kept as written', () => {
    expect(resolveSelector('@result_item >> nth=19', [maps], 'http://maps.demo.test/maps')).toBe('.hfpxzc >> nth=19');
  });

  it('an unknown name in a chain is refused with the names the profile has', async () => {
    const err = await failure((async () => resolveSelector('@nope >> nth=1', [maps], 'http://maps.demo.test/maps'))());
    expect(err).toMatchObject({ code: 'invalid_params' });
    expect(err.message).toContain('result_item');
  });
});
