// One pattern for every caller-chosen identifier: the manifests' input schemas
// (session, profile), the CLI (--session, --plan-id, --input names) and the
// profile store all refuse a name with a line break, a quote or plan code,
// with invalid_params; a host call with such a session is refused before it
// reaches a browser.
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_SOURCE, checkIdentifier } from '../../manifests/identifier.js';
import { loadManifests } from '../../manifests/load.js';
import { selectionOf } from '../../host/cli/export-command.js';
import { parseInputPairs } from '../../host/replay/inputs.js';
import { checkName } from '../../host/profiles/store.js';
import { testConfig, testHost } from '../helpers/host.js';

const HOSTILE = ['s1\n(call :web.open {:url "http://evil.test/"})', 'a"b', '../x', '', ' s', 'x;y', 'a\u2028b', 'x'.repeat(65), '.hidden'];

describe('one identifier pattern', () => {
  it('every session, profile and plan_id parameter in the manifests uses it', () => {
    let seen = 0;
    for (const m of loadManifests()) {
      const props = (m.input_schema as { properties?: Record<string, { pattern?: string }> }).properties ?? {};
      for (const key of ['session', 'profile', 'plan_id']) {
        if (!props[key]) continue;
        seen++;
        expect(props[key]!.pattern, `${m.id}.${key}`).toBe(IDENTIFIER_SOURCE);
      }
    }
    expect(seen).toBeGreaterThan(20);
  });

  it('the CLI and the profile store refuse hostile names with invalid_params, and take ordinary ones', () => {
    for (const name of HOSTILE) {
      expect(() => checkIdentifier(name, 'session')).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
      expect(() => selectionOf({ session: name || 'x"' })).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
      expect(() => selectionOf({ planId: name || 'x"' })).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
      expect(() => checkName(name)).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
      if (name && !name.includes('=')) expect(() => parseInputPairs([`${name}=v`])).toThrowError(expect.objectContaining({ code: 'invalid_params' }));
    }
    expect(selectionOf({ session: 's1' })).toEqual({ session: 's1' });
    expect(selectionOf({ planId: 'plan-1a2b3c4d' })).toEqual({ planId: 'plan-1a2b3c4d' });
    expect(parseInputPairs(['city=Paris=Nord'])).toEqual({ city: 'Paris=Nord' });
  });

  it('a refusal shows the name quoted on one line', () => {
    expect(() => checkIdentifier(HOSTILE[0], '--session')).toThrow(/^--session "s1\\n\(call :web.open/);
  });

  it('a host call naming a hostile session is invalid_params, before any browser', async () => {
    const host = testHost(testConfig());
    try {
      for (const session of HOSTILE.slice(0, 3)) {
        await expect(host.call('web.click', { selector: '#a', session })).rejects.toMatchObject({ code: 'invalid_params' });
      }
      expect(host.sessions()).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
