// robots.txt to the letter: RFC 9309 and Google's documented matching, one
// table per rule. Cases follow google/robotstxt's robots_test.cc (named by
// its test IDs) and RFC 9309's examples; the crawler is "FooBot" unless said.
import { describe, expect, it } from 'vitest';
import { RobotsRules, crawlerToken } from '../../../host/robots/rules.js';
import { normalisePath, patternMatches } from '../../../host/robots/match.js';
import { productToken } from '../../../host/robots/parse.js';

const allowed = (robotstxt: string, agent: string, url: string) => new RobotsRules('http://foo.bar', robotstxt).check(new URL(url), agent).allowed;
type Case = [name: string, robotstxt: string, agent: string, url: string, expected: boolean];
const table = (cases: Case[]) => it.each(cases)('%s', (_n, body, agent, url, expected) => expect(allowed(body, agent, url)).toBe(expected));

describe('line syntax (ID_LineSyntax_Line, ID_LineSyntax_Groups)', () => {
  table([
    ['a correct group disallows', 'user-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['a missing colon with exactly two words is accepted', 'user-agent FooBot\ndisallow /\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['a line of three words without a colon is ignored', 'foo: FooBot\nuser-agent FooBot bar\ndisallow: /\n', 'FooBot', 'http://foo.bar/x/y', true],
    ['rules before any user-agent line belong to no group', 'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/foo/bar/', false],
    ['consecutive user-agent lines share a group', 'user-agent: BarBot\nuser-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['a user-agent line after a rule starts a new group', 'user-agent: FooBot\ndisallow: /x/\nuser-agent: BarBot\ndisallow: /y/\n', 'FooBot', 'http://foo.bar/y/z', true],
    ['sitemap and unknown lines do not end a group', 'user-agent: BarBot\nsitemap: https://foo.bar/sitemap\nuser-agent: FooBot\ndisallow: /z/\n', 'FooBot', 'http://foo.bar/z/a', false],
    ['groups for one agent are merged', 'user-agent: FooBot\ndisallow: /x/\nuser-agent: BarBot\ndisallow: /y/\nuser-agent: FooBot\ndisallow: /z/\n', 'FooBot', 'http://foo.bar/z/a', false],
    ['CR line ends (ID_LinesNumbersAreCountedCorrectly)', 'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r', 'bar', 'http://foo.bar/x', false],
    ['CRLF line ends', 'User-Agent: foo\r\nDisallow: /a\r\n', 'foo', 'http://foo.bar/a', false],
    ['a UTF-8 byte order mark before the first key', '\uFEFFuser-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/', false],
    ['comments are stripped', 'user-agent: FooBot # the bot\ndisallow: /x # private\n', 'FooBot', 'http://foo.bar/x', false],
  ]);
});

describe('keys: case-insensitive, common misspellings (ID_REPLineNamesCaseInsensitive, ID_VerifyValidUserAgentsToObey)', () => {
  table([
    ['USER-AGENT / DISALLOW in capitals', 'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n', 'FooBot', 'http://foo.bar/a', false],
    ['mixed case keys', 'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n', 'FooBot', 'http://foo.bar/x/y', true],
    ['"dissallow" counts as disallow', 'user-agent: FooBot\ndissallow: /\n', 'FooBot', 'http://foo.bar/a', false],
    ['"useragent" counts as user-agent', 'useragent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/a', false],
  ]);
});

describe('user-agent: product token, first word, case-insensitive, * fallback (ID_UserAgentValueCaseInsensitive, ID_GlobalGroups_Secondary)', () => {
  table([
    ['group "FOO BAR" matches crawler "Foo"', 'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n', 'Foo', 'http://foo.bar/a', false],
    ['group "foo bar" matches crawler "FOO"', 'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n', 'FOO', 'http://foo.bar/x/y', true],
    ['group "FoO bAr" matches crawler "foo"', 'User-Agent: FoO bAr\nDisallow: /\n', 'foo', 'http://foo.bar/a', false],
    ['group "Foo/2.1" matches crawler "foo"', 'User-Agent: Foo/2.1\nDisallow: /\n', 'foo', 'http://foo.bar/a', false],
    ['crawler "webcap/0.1 (+https://…)" is webcap', 'User-agent: WebCap\nDisallow: /\n', 'webcap/0.1 (+https://github.com/webcap/webcap)', 'http://foo.bar/a', false],
    ['the rest of a group line does not count: "FooBot" is not "Foo"', 'User-agent: FooBot\nDisallow: /\n', 'Foo', 'http://foo.bar/a', true],
    ['no group for the crawler: * applies', 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n', 'BarBot', 'http://foo.bar/x/y', true],
    ['a group for the crawler: * is ignored', 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/x/y', false],
    ['an own group with no matching rule still hides * (allowed)', 'user-agent: *\ndisallow: /\nuser-agent: FooBot\ndisallow: /private\n', 'FooBot', 'http://foo.bar/public', true],
    ['only other crawlers named, no *: allowed', 'user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n', 'QuxBot', 'http://foo.bar/x/y', true],
    ['"*foo" is not the * group', 'user-agent: *foo\ndisallow: /\n', 'BarBot', 'http://foo.bar/x', true],
    ['"* " with trailing text is the * group', 'user-agent: * all\ndisallow: /\n', 'BarBot', 'http://foo.bar/x', false],
  ]);

  it('product tokens', () => {
    expect([productToken('FOO BAR'), productToken('Foo/1.2'), productToken('*'), productToken('* x'), productToken('*foo'), crawlerToken('Googlebot-Image/1.0')])
      .toEqual(['foo', 'foo', '*', '*', '', 'googlebot-image']);
  });
});

describe('longest match wins; on a tie Allow wins (ID_LongestMatch)', () => {
  table([
    ['equal patterns: allow', 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['longer allow', 'user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['longer allow, the rest disallowed', 'user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/', false],
    ['empty disallow matches nothing', 'user-agent: FooBot\ndisallow: \nallow: \n', 'FooBot', 'http://foo.bar/x/page.html', true],
    ['longer disallow', 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', 'FooBot', 'http://foo.bar/x/page.html', false],
    ['"/" vs "/x": the more specific wins', 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page.html', false],
    ['same length with wildcards: allow wins', 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page', true],
    ['allow /x, disallow /x/ (longer)', 'user-agent: FooBot\nallow: /x\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/', false],
    ['allow /x, disallow /x/: /x itself allowed', 'user-agent: FooBot\nallow: /x\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x', true],
  ]);
});

describe('$ and * (ID_SpecialCharacters, ID_Documentation_Matching)', () => {
  table([
    ['* inside a pattern', 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo/bar/quz', false],
    ['* inside a pattern (allow)', 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo/quz', true],
    ['* matching nothing', 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', 'FooBot', 'http://foo.bar/foo//quz', true],
    ['$ anchors: exact', 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', 'FooBot', 'http://foo.bar/foo/bar', false],
    ['$ anchors: longer path not matched', 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', 'FooBot', 'http://foo.bar/foo/bar/baz', true],
    ['$ anchors: query string makes it longer', 'User-agent: FooBot\nDisallow: /foo/bar$\n', 'FooBot', 'http://foo.bar/foo/bar?a=b', true],
    ['/*.php matches /filename.php', 'User-agent: FooBot\nDisallow: /*.php\n', 'FooBot', 'http://foo.bar/folder/filename.php?parameters', false],
    ['/*.php$ does not match with a query', 'User-agent: FooBot\nDisallow: /*.php$\n', 'FooBot', 'http://foo.bar/filename.php?parameters', true],
    ['/*.php$ matches the end', 'User-agent: FooBot\nDisallow: /*.php$\n', 'FooBot', 'http://foo.bar/folder/filename.php', false],
    ['/fish*.php', 'User-agent: FooBot\nDisallow: /fish*.php\n', 'FooBot', 'http://foo.bar/fishheads/catfish.php?parameters', false],
    ['/fish*.php is case-sensitive', 'User-agent: FooBot\nDisallow: /fish*.php\n', 'FooBot', 'http://foo.bar/Fish.PHP', true],
    ['/fish does not match /Fish.asp', 'User-agent: FooBot\nDisallow: /fish\n', 'FooBot', 'http://foo.bar/Fish.asp', true],
    ['/fish/ does not match /fish', 'User-agent: FooBot\nDisallow: /fish/\n', 'FooBot', 'http://foo.bar/fish', true],
    ['/fish* equals /fish', 'User-agent: FooBot\nDisallow: /fish*\n', 'FooBot', 'http://foo.bar/fish.html', false],
    ['a $ inside a pattern is literal', 'User-agent: FooBot\nDisallow: /a$b\n', 'FooBot', 'http://foo.bar/a$b/c', false],
    ['the query string is part of the path', 'User-agent: FooBot\nDisallow: /*?sessionid\n', 'FooBot', 'http://foo.bar/x?sessionid=1', false],
  ]);

  it('patternMatches', () => {
    expect([patternMatches('/a*b*c', '/a-b-c'), patternMatches('/a*b*c$', '/a-b-c-d'), patternMatches('/a*c$', '/acbc'), patternMatches('*', '/'), patternMatches('/$', '/')]).toEqual([true, false, true, true, true]);
  });
});

describe('percent-encoding normalisation of paths and patterns (ID_EncodingTests, RFC 9309 §2.2.2)', () => {
  table([
    ['%62%61%7A in a pattern matches baz', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', 'FooBot', 'http://foo.bar/foo/bar/baz', true],
    ['%62%61%7A in a pattern matches %62%61%7A', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', 'FooBot', 'http://foo.bar/foo/bar/%62%61%7A', true],
    ['baz in a pattern matches %62%61%7a in the path', 'User-agent: FooBot\nDisallow: /foo/bar/baz\n', 'FooBot', 'http://foo.bar/foo/bar/%62%61%7a', false],
    ['UTF-8 in a pattern matches the encoded path', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n', 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true],
    ['an encoded pattern matches the encoded path', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n', 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true],
    ['escape case does not matter', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%e3%83%84\n', 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true],
    ['a reserved character stays encoded: %2F is not /', 'User-agent: FooBot\nDisallow: /a/b\n', 'FooBot', 'http://foo.bar/a%2Fb', true],
    ['an unencoded query in a pattern', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n', 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', true],
    ['~ and %7E are one character', 'User-agent: FooBot\nDisallow: /%7Euser\n', 'FooBot', 'http://foo.bar/~user/x', false],
  ]);

  it('normalisePath', () => {
    expect([normalisePath('/%62%61%7A'), normalisePath('/a%2fb'), normalisePath('/ツ'), normalisePath('/%7e')]).toEqual(['/baz', '/a%2Fb', '/%E3%83%84', '/~']);
  });
});

describe('Google specifics and RFC 9309 odds', () => {
  table([
    ['Allow /dir/index.html also allows /dir/ (ID_IndexHTMLisDirectory)', 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.bar/allowed-slash/', true],
    ['…but not /dir/other', 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.bar/allowed-slash/index.htm', false],
    ['…and the index page itself', 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', 'foobot', 'http://foo.bar/allowed-slash/index.html', true],
    ['/robots.txt is always allowed (RFC 9309 §2.2.2)', 'User-agent: *\nDisallow: /\n', 'FooBot', 'http://foo.bar/robots.txt', true],
    ['an empty file allows everything', '', 'FooBot', 'http://foo.bar/x', true],
    ['an empty user agent gets the * group', 'User-agent: *\nDisallow: /\n', '', 'http://foo.bar/x', false],
  ]);

  it('reads only the first 500 KiB (RFC 9309 §2.5), counted in bytes', () => {
    const head = 'User-agent: FooBot\n';
    const filler = `# ${'é'.repeat(300 * 1024)}\n`; // 600 KiB of bytes, 300 K characters
    expect(allowed(`${head}${filler}Disallow: /late\n`, 'FooBot', 'http://foo.bar/late')).toBe(true);
    expect(allowed(`${head}Disallow: /early\n${filler}`, 'FooBot', 'http://foo.bar/early')).toBe(false);
  });

  it('Crawl-delay of the crawler\'s group', () => {
    const rules = new RobotsRules('http://foo.bar', 'User-agent: *\nCrawl-delay: 9\n\nUser-agent: FooBot\nCrawl-delay: 0.5\nDisallow: /x\n');
    expect(rules.check(new URL('http://foo.bar/'), 'FooBot/1.0').crawlDelayMs).toBe(500);
    expect(rules.check(new URL('http://foo.bar/'), 'OtherBot').crawlDelayMs).toBe(9000);
  });
});

describe('through the host (policy chain, real robots.txt on loopback, web.scrape render: "never")', () => {
  it('a group "User-agent: WEBCAP BOT" binds webcap/0.1; %62%61%7A in a rule allows /baz; the deciding rule is named', async () => {
    const { serve, send } = await import('../../helpers/fixture-server.js');
    const { testConfig, testHost } = await import('../../helpers/host.js');
    const { failure } = await import('../../helpers/failure.js');
    const robots = 'User-agent: *\nAllow: /\n\nUser-agent: WEBCAP BOT\nDisallow: /private\nAllow: /private/%62%61%7A\n';
    const page = '<!doctype html><title>Baz</title><article><h1>Baz</h1><p>' + 'The baz page has words to read. '.repeat(40) + '</p></article>';
    const site = await serve({ '/robots.txt': (_req, res) => send(res, robots, 200, 'text/plain'), '*': (_req, res) => send(res, page) });
    const host = testHost(testConfig({ browser: { respect_robots: true }, network: { resolve: { 'rules.test': '127.0.0.1' } } }));
    try {
      const ok = await host.call('web.scrape', { url: site.url('rules.test', '/private/baz'), render: 'never' });
      expect(ok.title).toBe('Baz');
      const refused = await failure(host.call('web.scrape', { url: site.url('rules.test', '/private/other'), render: 'never' }));
      expect([refused.code, refused.details.rule]).toEqual(['robots_disallowed', 'Disallow: /private']);
    } finally {
      await host.close();
      await site.close();
    }
  });
});
