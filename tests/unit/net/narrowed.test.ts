// A client's own allowlist only narrows the host's: a host must match both,
// and the refusal names the client whose list said no.
import { describe, expect, it } from 'vitest';
import { checkHost } from '../../../manifests/net/resolve.js';

const policy = { allowlist: ['*.test'], denylist: [], resolve: { 'a.test': '127.0.0.1', 'b.test': '127.0.0.1', 'c.example': '127.0.0.1' }, allowPrivate: ['127.0.0.1'] };
const bob = { client: 'bob', domains_allowlist: ['b.test', 'c.example'] };

describe('checkHost with a client narrowing', () => {
  it.each([
    ['b.test', true, undefined],
    ['B.TEST.', true, undefined],
    ['a.test', false, /not in the domains_allowlist of client bob/],
    // The client's list cannot widen the host's.
    ['c.example', false, /no rule in domains_allowlist/],
  ])('%s', async (host, ok, reason) => {
    const v = await checkHost(host, { ...policy, narrowed: bob });
    expect(v.ok).toBe(ok);
    if (!v.ok) { expect(v.code).toBe('not_allowlisted'); expect(v.reason).toMatch(reason!); }
  });

  it('without a narrowing the host allowlist alone decides', async () => {
    expect((await checkHost('a.test', policy)).ok).toBe(true);
  });

  it('an empty client list allows nothing', async () => {
    expect((await checkHost('b.test', { ...policy, narrowed: { client: 'x', domains_allowlist: [] } })).ok).toBe(false);
  });
});
