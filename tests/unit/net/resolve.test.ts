// Never touches the network: DNS is a fake `lookup`, except one lookup of "localhost".
import { describe, expect, it, vi } from 'vitest';
import { checkUrl, resolveHost, type Lookup, type NetPolicy } from '../../../manifests/net/resolve.js';

function fakeDns(table: Record<string, string[]>): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    const hit = table[host];
    if (!hit) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return hit;
  };
  return Object.assign(fn, { calls });
}

describe('resolveHost', () => {
  it('returns IP literals, odd spellings included, without a lookup', async () => {
    const dns = fakeDns({});
    expect(await resolveHost('2130706433', {}, dns)).toEqual(['127.0.0.1']);
    expect(await resolveHost('[::1]', {}, dns)).toEqual(['::1']);
    expect(dns.calls).toEqual([]);
  });

  it('prefers [network] resolve over DNS, case- and trailing-dot-insensitively', async () => {
    const dns = fakeDns({ 'shop.test': ['8.8.8.8'] });
    expect(await resolveHost('Shop.Test.', { 'shop.test': '127.0.0.1' }, dns)).toEqual(['127.0.0.1']);
    expect(dns.calls).toEqual([]);
  });

  it('caches lookups, so a page with many requests costs one', async () => {
    const dns = fakeDns({ 'cdn.test': ['93.184.216.34'] });
    await Promise.all([1, 2, 3].map(() => resolveHost('cdn.test', {}, dns)));
    await resolveHost('cdn.test', {}, dns);
    expect(dns.calls).toEqual(['cdn.test']);
  });

  it('does not remember failures', async () => {
    const dns = fakeDns({});
    await expect(resolveHost('gone.test', {}, dns)).rejects.toThrow(/ENOTFOUND/);
    await expect(resolveHost('gone.test', {}, dns)).rejects.toThrow(/ENOTFOUND/);
    expect(dns.calls).toEqual(['gone.test', 'gone.test']);
  });

  it('uses the system resolver for localhost', async () => {
    const addresses = await resolveHost('localhost', {});
    expect(addresses.length).toBeGreaterThan(0);
  });
});

describe('checkUrl', () => {
  const dns = fakeDns({
    'public.test': ['93.184.216.34'],
    'rebind.test': ['93.184.216.34', '10.0.0.5'],
    'v6.test': ['2606:4700::1111', '::1'],
  });
  const policy: NetPolicy = {
    allowlist: ['*.test', '127.0.0.*', '169.254.169.254'],
    denylist: ['*.evil.test'],
    resolve: { 'shop.test': '127.0.0.1', 'admin.test': '127.0.0.2', 'meta.test': '169.254.169.254', 'odd.test': '0x7f.1' },
    allowPrivate: ['127.0.0.1'],
    lookup: dns,
  };
  const check = (url: string, extra: Partial<NetPolicy> & { subresource?: boolean } = {}) => checkUrl(new URL(url), { ...policy, ...extra });

  it.each([
    ['http://shop.test:8080/', true, undefined],
    ['http://public.test/', true, undefined],
    ['http://127.0.0.1/', true, undefined],
    ['http://2130706433/', true, undefined],              // the URL parser makes it 127.0.0.1
    ['about:blank', true, undefined],
    ['http://other.example/', false, 'not_allowlisted'],
    ['http://x.evil.test/', false, 'not_allowlisted'],
    ['http://evil.test/', false, 'not_allowlisted'],
    ['file:///etc/passwd', false, 'unsupported_scheme'],
    ['javascript:alert(1)', false, 'unsupported_scheme'],
    ['ws://shop.test/', false, 'unsupported_scheme'],      // not as a page
    ['http://admin.test/', false, 'ssrf_blocked'],
    ['http://127.0.0.2/', false, 'ssrf_blocked'],
    ['http://0x7f.0.0.2/', false, 'ssrf_blocked'],
    ['http://meta.test/', false, 'ssrf_blocked'],
    ['http://169.254.169.254/latest/meta-data/', false, 'ssrf_blocked'],
    ['http://odd.test/', true, undefined],                 // resolve value in an odd spelling is still 127.0.0.1
    ['http://rebind.test/', false, 'ssrf_blocked'],        // every address must pass
    ['http://v6.test/', false, 'ssrf_blocked'],
    ['http://nowhere.test/', false, 'ssrf_blocked'],       // unresolvable: fail closed
  ] as const)('%s → ok %s %s', async (url, ok, code) => {
    const v = await check(url);
    expect(v.ok).toBe(ok);
    if (!v.ok) expect(v.code).toBe(code);
  });

  it('allows websockets and data: as subresources', async () => {
    expect((await check('ws://shop.test/socket', { subresource: true })).ok).toBe(true);
    expect((await check('data:image/png;base64,AA==', { subresource: true })).ok).toBe(true);
    expect(await check('wss://admin.test/', { subresource: true })).toMatchObject({ ok: false, code: 'ssrf_blocked' });
  });

  it('explains SSRF refusals with the address and its category', async () => {
    expect(await check('http://admin.test/')).toMatchObject({
      ok: false, code: 'ssrf_blocked', host: 'admin.test', address: '127.0.0.2', category: 'loopback',
      reason: 'admin.test resolves to 127.0.0.2 (loopback), which is not in [network] allow_private',
    });
    expect(await check('http://[::ffff:127.0.0.2]/')).toMatchObject({ ok: false, reason: '::ffff:7f00:2 is a loopback address, which is not in [network] allow_private' });
    expect(await check('http://nowhere.test/')).toMatchObject({ ok: false, unresolved: true, reason: 'nowhere.test could not be resolved (ENOTFOUND)' });
  });

  it('names the deciding rule', async () => {
    expect(await check('http://a.evil.test/')).toMatchObject({ ok: false, rule: '*.evil.test', host: 'a.evil.test' });
    expect(await check('http://public.test/')).toEqual({ ok: true, addresses: ['93.184.216.34'] });
  });

  it('checks the hostname before resolving it', async () => {
    const lookup = vi.fn(dns);
    await check('http://not.allowed.example/', { lookup });
    expect(lookup).not.toHaveBeenCalled();
  });
});
