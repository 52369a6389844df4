// robots.txt fetching under the network policy, with real HTTP servers on
// loopback: no hop reaches a refused address, an endless file cannot hang a
// call, a bad Location or a failed fetch does not break an origin for good.
import { afterEach, describe, expect, it } from 'vitest';
import { readEntries } from '../../../host/chain/verify.js';
import { validateConfig } from '../../../host/config/load.js';
import { fetchRobots, type RobotsFetch } from '../../../host/robots/fetch.js';
import { httpGet } from '../../../host/robots/http-get.js';
import { MAX_CACHED_ORIGINS, RobotsCache } from '../../../host/robots/robots.js';
import { failure } from '../../helpers/failure.js';
import { serve, send, type FixtureServer } from '../../helpers/fixture-server.js';
import { testConfig, testHost } from '../../helpers/host.js';

const servers: FixtureServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => s.close())); });
async function server(routes: Parameters<typeof serve>[0], address?: string) {
  const s = await serve(routes, address);
  servers.push(s);
  return s;
}

const policy = { allowlist: ['*.test'], denylist: [], allowPrivate: ['127.0.0.1'] };
const opts = (resolve: Record<string, string>, timeoutMs = 30_000) => ({ timeoutMs, resolve, policy });
const redirectTo = (to: string) => (_req: unknown, res: import('node:http').ServerResponse) => { res.writeHead(302, { location: to }); res.end(); };

describe('SSRF through the robots.txt fetch', () => {
  it('web.open of an allowlisted name that resolves to a private address is refused before anything connects to it', async () => {
    const priv = await server({ '*': (_req, res) => send(res, 'User-agent: *\nAllow: /', 200, 'text/plain') }, '127.0.0.2');
    const config = testConfig({
      browser: { domains_allowlist: ['x.test'], respect_robots: true },
      network: { resolve: { 'x.test': `127.0.0.2:${priv.port}` }, allow_private: ['127.0.0.1'] },
    });
    const host = testHost(config);
    try {
      const err = await failure(host.call('web.open', { url: 'http://x.test/' }));
      expect(err.code).toBe('ssrf_blocked');
      expect(priv.hits).toEqual([]);
      // The SSRF policy decided before the robots policy ran at all.
      const entry = readEntries(config.chain.path).find((e) => e.kind === 'call' && e.capability === 'web.open');
      const policies = (entry?.decisions as Array<{ policy: string }>).map((d) => d.policy);
      expect(policies).toContain('ssrf');
      expect(policies).not.toContain('robots');
    } finally {
      await host.close();
    }
  });

  it('a robots.txt redirect to a private address or name is not followed (allow all), and that server sees nothing', async () => {
    const priv = await server({ '*': (_req, res) => send(res, 'User-agent: *\nDisallow: /', 200, 'text/plain') }, '127.0.0.2');
    const site = await server({
      '/robots.txt': (req, res) => redirectTo(req.headers.host?.startsWith('byname.test') ? `http://inside.test:${priv.port}/robots.txt` : `http://127.0.0.2:${priv.port}/robots.txt`)(req, res),
    });
    const resolve = { 'site.test': '127.0.0.1', 'byname.test': '127.0.0.1', 'inside.test': '127.0.0.2' };
    // 127.0.0.2 is allowlisted, so the SSRF check is what stops the hop.
    const withIp = { ...opts(resolve), policy: { ...policy, allowlist: ['*.test', '127.0.0.2'] } };
    const byIp = await fetchRobots(`http://site.test:${site.port}`, withIp);
    const byName = await fetchRobots(`http://byname.test:${site.port}`, withIp);
    expect(byIp).toMatchObject({ kind: 'allow_all', reason: expect.stringContaining('127.0.0.2 is a loopback address') });
    expect(byName).toMatchObject({ kind: 'allow_all', reason: expect.stringContaining('inside.test resolves to 127.0.0.2') });
    expect(site.hits).toHaveLength(2);
    expect(priv.hits).toEqual([]);
  });

  it('a redirect to the metadata address, to a host off the allowlist or to file: is never requested', async () => {
    const targets = ['http://169.254.169.254/latest/meta-data/', 'http://elsewhere.example/robots.txt', 'file:///etc/passwd'];
    const site = await server({ '/robots.txt': (req, res) => redirectTo(targets[Number(req.headers['x-case'])])(req, res) });
    for (const [i, target] of targets.entries()) {
      const requested: string[] = [];
      const recordingGet: typeof httpGet = (url, o) => { requested.push(url); return httpGet(url, o); };
      const result = await fetchRobots(`http://site.test:${site.port}`, { ...opts({ 'site.test': '127.0.0.1' }), headers: { 'x-case': String(i) } }, recordingGet);
      expect(result.kind).toBe('allow_all');
      expect(requested).toEqual([`http://site.test:${site.port}/robots.txt`]);
      expect(result.kind === 'allow_all' && result.reason).toContain(new URL(target).href);
    }
  });

  it('connects to the address the policy checked, also for a host written with a trailing dot', async () => {
    const site = await server({ '/robots.txt': (_req, res) => send(res, 'User-agent: *\nDisallow: /x', 200, 'text/plain') });
    const result = await fetchRobots(`http://site.test.:${site.port}`, opts({ 'site.test': '127.0.0.1' }));
    expect(result.kind).toBe('rules');
    expect(site.hits).toEqual([`site.test.:${site.port}/robots.txt`]);
  });
});

describe('an endless robots.txt', () => {
  const endless = (chunk: string, everyMs: number) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => res.write(chunk), everyMs);
    res.on('close', () => clearInterval(timer));
  };

  it('a file that trickles forever ends at the overall deadline (unreachable: disallow all)', async () => {
    const site = await server({ '/robots.txt': endless('# still going\n', 20) });
    // The file never ends: only the 400 ms deadline (named in the reason) ends this before the test's timeout.
    const result = await fetchRobots(`http://site.test:${site.port}`, opts({ 'site.test': '127.0.0.1' }, 400));
    expect(result).toMatchObject({ kind: 'disallow_all', reason: expect.stringContaining('timed out after 400 ms') });
  });

  it('a fast endless file is cut at maxBytes and read as rules', async () => {
    const site = await server({ '/robots.txt': endless(`User-agent: *\nDisallow: /private\n${'#'.repeat(16 * 1024)}\n`, 1) });
    // Cut, not timed out: a 200 holding exactly maxBytes (a timeout would be an error).
    const res = await httpGet(`http://site.test:${site.port}/robots.txt`, { timeoutMs: 30_000, resolve: { 'site.test': '127.0.0.1' }, maxBytes: 64 * 1024 });
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.body)).toBe(64 * 1024);
  });

  it('the cache answers every caller of that origin once the deadline passes', async () => {
    const site = await server({ '/robots.txt': endless('# x\n', 20) });
    const config = validateConfig({ robots: { fetch_timeout_ms: 300 }, capabilities: { browser: { domains_allowlist: ['*.test'] } }, network: { resolve: { 'site.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] } }, '/tmp');
    const cache = new RobotsCache(config);
    const url = new URL(`http://site.test:${site.port}/page`);
    const verdicts = await Promise.all([cache.check(url), cache.check(url)]);
    expect(verdicts.map((v) => v.allowed)).toEqual([false, false]);
  });
});

describe('bad redirects, failed fetches, many origins', () => {
  it('a Location that is not a URL means "unavailable" (allow all)', async () => {
    const site = await server({ '/robots.txt': redirectTo('http://[') });
    const result = await fetchRobots(`http://site.test:${site.port}`, opts({ 'site.test': '127.0.0.1' }));
    expect(result).toMatchObject({ kind: 'allow_all', reason: expect.stringContaining('invalid URL') });
  });

  it('a fetch that fails is not cached: the next call fetches again and succeeds', async () => {
    let calls = 0;
    const fetch: typeof fetchRobots = async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return { kind: 'allow_all', reason: 'fine' };
    };
    const cache = new RobotsCache(validateConfig({}, '/tmp'), { fetch });
    await expect(cache.check(new URL('http://a.test/'))).rejects.toThrow('boom');
    expect(await cache.check(new URL('http://a.test/'))).toMatchObject({ allowed: true, reason: 'fine' });
    expect(calls).toBe(2);
  });

  it(`remembers at most ${MAX_CACHED_ORIGINS} origins, dropping the oldest; "a.test." and "a.test" are one origin`, async () => {
    const fetched: string[] = [];
    const fetch: typeof fetchRobots = async (origin): Promise<RobotsFetch> => { fetched.push(origin); return { kind: 'allow_all', reason: 'ok' }; };
    const cache = new RobotsCache(validateConfig({}, '/tmp'), { fetch });
    await cache.check(new URL('http://A.test./x'));
    await cache.check(new URL('http://a.test/y'));
    expect(fetched).toEqual(['http://a.test']);
    for (let i = 0; i < MAX_CACHED_ORIGINS; i++) await cache.check(new URL(`http://h${i}.test/`));
    expect(cache.size).toBe(MAX_CACHED_ORIGINS);
    await cache.check(new URL('http://h999.test/'));   // newest: still cached
    expect(fetched).toHaveLength(MAX_CACHED_ORIGINS + 1);
    await cache.check(new URL('http://a.test/'));      // oldest: evicted, fetched again
    expect(fetched).toHaveLength(MAX_CACHED_ORIGINS + 2);
  });
});
