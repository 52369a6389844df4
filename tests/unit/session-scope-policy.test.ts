// policies/session-scope.ts as table cases: one MCP client among several may
// name only its own sessions; the refusal is a decision in the chain.
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../manifests/load.js';
import { sessionScopePolicy, type SessionOwner } from '../../host/policies/session-scope.js';
import type { CallContext } from '../../host/policies/types.js';
import { failure } from '../helpers/failure.js';

const manifests = new Map(loadManifests().map((m) => [m.id, m]));
const mine = ['s1', 's3'];
const theirs = ['s2'];
const scope: SessionOwner = { owns: (s) => mine.includes(s), takenElsewhere: (s) => theirs.includes(s), sessions: mine };
const empty: SessionOwner = { owns: () => false, takenElsewhere: (s) => theirs.includes(s), sessions: [] };

function run(capability: string, params: Record<string, unknown>, withScope: SessionOwner | false = scope) {
  const call: CallContext = { capability, manifest: manifests.get(capability)!, params, decisions: [], startedAt: 0, ...(withScope ? { scope: withScope } : {}) };
  return { call, result: sessionScopePolicy()(call, async () => ({ passed: true })) };
}

describe('sessionScopePolicy', () => {
  it.each([
    ['web.click', { selector: '#a', session: 's1' }],
    ['web.url', { session: 's3' }],
    ['web.open', { url: 'http://a.test/' }],
    ['web.open', { url: 'http://a.test/', session: 'fresh' }],
    ['web.fill_form', { url: 'http://a.test/', fields: {} }],
    ['web.scrape', { url: 'http://a.test/' }],       // no session parameter at all
    ['web.status', {}],
    ['web.url', {}],                                  // the caller's own latest session
  ])('lets %s %j through', async (capability, params) => {
    await expect(run(capability, params).result).resolves.toEqual({ passed: true });
  });

  it.each([
    ['web.click', { selector: '#a', session: 's2' }, 'no open session named "s2" (open: s1, s3)'],
    ['web.close', { session: 's2' }, 'no open session named "s2" (open: s1, s3)'],
    ['web.open', { url: 'http://a.test/', session: 's2' }, 'no open session named "s2" (open: s1, s3)'],
    ['web.url', {}, 'no session is open: call web.open first'],
    ['web.fill_form', { fields: {} }, 'no session is open: call web.open first'],
  ])('refuses %s %j as session_not_found, with a denied decision', async (capability, params, message) => {
    // Calls without a session are refused for a caller that has none (whatever other callers have open).
    const { call, result } = run(capability, params, 'session' in params || capability === 'web.open' ? scope : empty);
    const e = await failure(result);
    expect(e.code).toBe('session_not_found');
    expect(e.message).toBe(message);
    expect(call.decisions).toEqual([{ policy: 'session_scope', decision: 'denied', reason: message }]);
  });

  it('does nothing for a call without a scope (governance gives every call one: the host sets it from the owner)', async () => {
    await expect(run('web.click', { selector: '#a', session: 's2' }, false).result).resolves.toEqual({ passed: true });
  });
});

describe('sessionScopePolicy after a crash', () => {
  it('tells a caller whose sessions a crash took browser_crashed, named or not; a fresh caller still gets session_not_found', async () => {
    const lost: SessionOwner = { owns: () => false, takenElsewhere: () => false, sessions: [], lostInCrash: (s) => s === undefined || s === 's1' };
    for (const params of [{}, { session: 's1' }]) {
      const { call, result } = run('web.url', params, lost);
      expect((await failure(result)).code).toBe('browser_crashed');
      expect(call.decisions[0]).toMatchObject({ policy: 'session_scope', decision: 'denied' });
    }
    expect((await failure(run('web.url', { session: 's9' }, lost).result)).code).toBe('session_not_found');
    expect((await failure(run('web.url', {}, empty).result)).code).toBe('session_not_found');
  });
});
