// Dates an agent might write, as a date input needs them (YYYY-MM-DD), and the
// ones that must be refused rather than guessed.
import { describe, expect, it } from 'vitest';
import { toIsoDate } from '../../../sidecar/forms/dates.js';

describe('toIsoDate', () => {
  it.each([
    ['2025-03-14', '2025-03-14'],
    ['2025-3-4', '2025-03-04'],
    ['2025-03-14T09:30:00Z', '2025-03-14'],
    ['14 March 2025', '2025-03-14'],
    ['14 Mar. 2025', '2025-03-14'],
    ['March 14, 2025', '2025-03-14'],
    ['  Sep 1 2024 ', '2024-09-01'],
    ['29 February 2024', '2024-02-29'],
  ])('%s → %s', (input, iso) => {
    expect(toIsoDate(input)).toEqual({ ok: true, value: iso });
  });

  it.each([
    ['03/04/2025', /ambiguous/],
    ['3.4.25', /ambiguous/],
    ['next tuesday', /is not a date/],
    ['2025-02-30', /not a calendar date/],
    ['29 February 2023', /not a calendar date/],
    ['14 Smarch 2025', /is not a date/],
  ])('refuses %s', (input, why) => {
    const r = toIsoDate(input);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(why);
    // A format problem says which format works; a wrong day needs no such hint.
    if (!/calendar/.test(why.source)) expect(!r.ok && r.reason).toMatch(/YYYY-MM-DD/);
  });
});
