// The load bench in its quick form (12 plans, 3 at once, 3 slots, through one
// host over the bundled demo sites): fails on any lost or crossed plan, never
// on time. The full runs (`npm run bench:load`) are in docs/benchmarks.md.
import { describe, expect, it } from 'vitest';
import { runLoad, withChainVerdict } from '../../bench/load.js';
import { tempDir } from '../helpers/host.js';

describe('bench:load, quick form', () => {
  it('12 plans, 3 at once: every plan returns its own 20 places, none lost or crossed; the chain verifies', async () => {
    const dir = tempDir('webcap-load-quick-');
    const report = withChainVerdict(await runLoad({ plans: 12, parallel: 3, slots: 3, baseline: 0, dir, timeoutMs: 120_000 }), dir);
    expect({ full: report.full, crossed: report.crossed, short: report.short, errors: report.errors, chainOk: report.chainOk })
      .toEqual({ full: 12, crossed: 0, short: 0, errors: {}, chainOk: true });
  }, 900_000);
});
