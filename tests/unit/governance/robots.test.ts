// robots.txt under RFC 9309, including each place we fix around robots-parser.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchRobots } from '../../../host/robots/fetch.js';
import { RobotsCache } from '../../../host/robots/robots.js';
import { RobotsRules, normalisePath } from '../../../host/robots/rules.js';
import { validateConfig } from '../../../host/config/load.js';
import { serve, send } from '../../helpers/fixture-server.js';

const UA = 'webcap/0.1 (+https://github.com/webcap/webcap)';
const rules = (body: string) => new RobotsRules('http://site.test', body);
const check = (body: string, path: string) => rules(body).check(new URL(`http://site.test${path}`), UA);

describe('rules', () => {
  it.each([
    ['Disallow /private with Allow /private/ok: the longer Allow wins', 'User-agent: *\nDisallow: /private\nAllow: /private/ok', '/private/ok/x', true, 'Allow: /private/ok'],
    ['…and the Disallow covers the rest', 'User-agent: *\nDisallow: /private\nAllow: /private/ok', '/private/no', false, 'Disallow: /private'],
    ['equal length: Allow wins', 'User-agent: *\nDisallow: /a\nAllow: /a', '/a', true, 'Allow: /a'],
    ['* matches any run', 'User-agent: *\nDisallow: /*.pdf', '/docs/x.pdf', false, 'Disallow: /*.pdf'],
    ['$ anchors the end', 'User-agent: *\nDisallow: /*.pdf$', '/docs/x.pdf?download=1', true, undefined],
    ['$ anchors the end (match)', 'User-agent: *\nDisallow: /*.pdf$', '/x.pdf', false, 'Disallow: /*.pdf$'],
    ['%7E in the rule equals ~ in the path (fixed around robots-parser)', 'User-agent: *\nDisallow: /%7Euser', '/~user/page', false, 'Disallow: /%7Euser'],
    ['~ in the rule equals %7e in the path', 'User-agent: *\nDisallow: /~user', '/%7euser/page', false, 'Disallow: /~user'],
    ['escape case does not matter for reserved characters', 'User-agent: *\nDisallow: /a%2fb', '/a%2Fb', false, 'Disallow: /a%2fb'],
    ['a group for our product token beats *', 'User-agent: *\nDisallow: /\n\nUser-agent: WebCap\nAllow: /', '/x', true, 'Allow: /'],
    ['other bots\' groups do not apply', 'User-agent: otherbot\nDisallow: /', '/x', true, undefined],
    ['empty Disallow allows all', 'User-agent: *\nDisallow:', '/x', true, undefined],
    ['comments are ignored and not quoted', 'User-agent: *\nDisallow: /tmp # scratch', '/tmp/a', false, 'Disallow: /tmp'],
  ])('%s', (_name, body, path, allowed, rule) => {
    const v = check(body, path);
    expect(v.allowed).toBe(allowed);
    expect(v.rule).toBe(rule);
  });

  it('reads Crawl-delay in ms', () => {
    expect(check('User-agent: *\nCrawl-delay: 1.5\nDisallow: /x', '/').crawlDelayMs).toBe(1500);
  });

  it('normalises percent-encoding of unreserved characters only', () => {
    expect(normalisePath('/%7e%41%2f%2A')).toBe('/~A%2F%2A');
  });

  it('stops reading past 500 KiB', () => {
    const filler = `# ${'x'.repeat(600 * 1024)}\n`;
    expect(check(`User-agent: *\n${filler}Disallow: /late`, '/late').allowed).toBe(true);
  });
});

describe('fetch and cache (real HTTP on loopback)', () => {
  const opts = { timeoutMs: 30_000, resolve: { 'robots.test': '127.0.0.1' }, policy: { allowlist: ['*.test', '127.0.0.1'], denylist: [], allowPrivate: ['127.0.0.1'] } };

  it('404 → allow all, 500 → disallow all, nothing listening → unreachable (the caller fails the navigation, not robots)', async () => {
    const s = await serve({ '/robots.txt': (req, res) => send(res, '', req.headers.host?.startsWith('robots.test') ? 404 : 500) });
    try {
      expect((await fetchRobots(`http://robots.test:${s.port}`, opts)).kind).toBe('allow_all');
      expect((await fetchRobots(`http://127.0.0.1:${s.port}`, opts)).kind).toBe('disallow_all');
    } finally {
      await s.close();
    }
    const nobody = createServer();
    await new Promise<void>((r) => nobody.listen(0, '127.0.0.1', r));
    const port = (nobody.address() as { port: number }).port;
    await new Promise((r) => nobody.close(r));
    expect(await fetchRobots(`http://robots.test:${port}`, opts)).toMatchObject({ kind: 'unreachable', host: `robots.test:${port}`, reason: expect.stringContaining('ECONNREFUSED') });
  });

  it('follows up to 5 redirects, and treats more as unavailable (allow all)', async () => {
    let count = 0;
    const s = await serve({
      '*': (req, res) => {
        const n = Number(/\/r(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
        count += 1;
        if (req.url === '/robots.txt') { res.writeHead(301, { location: '/r1' }); return void res.end(); }
        const limit = Number(process.env.__REDIRECTS ?? 0);
        if (n < limit) { res.writeHead(302, { location: `/r${n + 1}` }); return void res.end(); }
        send(res, 'User-agent: *\nDisallow: /', 200, 'text/plain');
      },
    });
    try {
      process.env.__REDIRECTS = '3';
      expect((await fetchRobots(`http://robots.test:${s.port}`, opts)).kind).toBe('rules');
      process.env.__REDIRECTS = '9';
      count = 0;
      expect((await fetchRobots(`http://robots.test:${s.port}`, opts)).kind).toBe('allow_all');
      expect(count).toBe(6);
    } finally {
      delete process.env.__REDIRECTS;
      await s.close();
    }
  });

  it('sends the configured user agent, caches per origin, refetches after the TTL', async () => {
    const agents: string[] = [];
    const s = await serve({ '/robots.txt': (req, res) => { agents.push(String(req.headers['user-agent'])); send(res, 'User-agent: *\nDisallow: /no', 200, 'text/plain'); } });
    let now = 0;
    const config = validateConfig({ robots: { cache_ttl_s: 60 }, capabilities: { browser: { domains_allowlist: ['*.test'] } }, network: { resolve: { 'robots.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] } }, '/tmp');
    const cache = new RobotsCache(config, { now: () => now });
    try {
      const url = (p: string) => new URL(`http://robots.test:${s.port}${p}`);
      expect((await cache.check(url('/no'))).allowed).toBe(false);
      expect((await cache.check(url('/yes'))).allowed).toBe(true);
      expect(agents).toEqual([config.capabilities.browser.user_agent]);
      now = 61_000;
      await cache.check(url('/yes'));
      expect(agents).toHaveLength(2);
    } finally {
      await s.close();
    }
  });
});
