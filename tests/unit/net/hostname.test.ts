import { describe, expect, it } from 'vitest';
import { checkScheme, describeHostDenial, matchHost, normalizeHost } from '../../../manifests/net/hostname.js';

describe('matchHost', () => {
  it.each([
    // host, allowlist, denylist, allowed, rule
    ['www.example.org', ['*.example.org'], [], true, '*.example.org'],
    ['a.b.example.org', ['*.example.org'], [], true, '*.example.org'],
    // Decision: "*.x" also covers the bare apex "x".
    ['example.org', ['*.example.org'], [], true, '*.example.org'],
    ['google.com', ['*.google.com'], [], true, '*.google.com'],
    ['notexample.org', ['*.example.org'], [], false, ''],
    ['example.org.evil.test', ['*.example.org'], [], false, ''],
    ['anything.test', ['*'], [], true, '*'],
    ['::1', ['*'], [], true, '*'],
    ['shop.test', ['shop.test'], [], true, 'shop.test'],
    ['www.shop.test', ['shop.test'], [], false, ''],
    ['SHOP.Test.', ['shop.test'], [], true, 'shop.test'],
    ['shop.test', ['SHOP.TEST'], [], true, 'SHOP.TEST'],
    ['a.shop.test', ['{a,b}.shop.test'], [], true, '{a,b}.shop.test'],
    ['bücher.de', ['xn--bcher-kva.de'], [], true, 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', ['*.bücher.de'], [], true, '*.bücher.de'],
    ['127.0.0.1', ['127.0.0.1'], [], true, '127.0.0.1'],
    ['127.0.0.1', ['0x7f.1'], [], true, '0x7f.1'],
    ['127.0.0.9', ['127.0.0.0/8'], [], true, '127.0.0.0/8'],
    ['[::1]', ['::1'], [], true, '::1'],
    ['::1', ['[::1]'], [], true, '[::1]'],
    ['::2', ['[::1]'], [], false, ''],
    ['x.test', [], [], false, ''],
    // The denylist wins, and "*.evil.test" denies the apex too.
    ['evil.test', ['*'], ['*.evil.test'], false, '*.evil.test'],
    ['a.evil.test', ['*.evil.test'], ['*.evil.test'], false, '*.evil.test'],
    ['good.test', ['*'], ['*.evil.test'], true, '*'],
  ] as const)('%s with allow %j deny %j → %s (%s)', (host, allow, deny, allowed, rule) => {
    const m = matchHost(host, allow, deny);
    expect(m.allowed).toBe(allowed);
    expect(m.rule).toBe(rule);
  });

  it('says which list decided', () => {
    expect(describeHostDenial('evil.test', matchHost('evil.test', ['*'], ['evil.test'])))
      .toBe('host "evil.test" is denied by rule "evil.test" in domains_denylist');
    expect(describeHostDenial('evil.test', matchHost('evil.test', ['*.example.org'], [])))
      .toBe('host "evil.test" is not allowed (no rule in domains_allowlist matches)');
  });

  it('normalizes hosts', () => {
    expect(normalizeHost('Bücher.DE.')).toBe('xn--bcher-kva.de');
    expect(normalizeHost('[::FFFF:7f00:1]')).toBe('::ffff:7f00:1');
    expect(normalizeHost('2130706433')).toBe('127.0.0.1');
  });
});

describe('checkScheme', () => {
  it.each([
    ['http://a.test/', false, true], ['https://a.test/', false, true], ['about:blank', false, true],
    ['file:///etc/passwd', false, false], ['data:text/html,hi', false, false], ['javascript:alert(1)', false, false],
    ['chrome://settings', false, false], ['view-source:http://a.test/', false, false], ['ftp://a.test/', false, false],
    ['ws://a.test/', false, false], ['wss://a.test/', false, false], ['about:config', false, false],
    ['ws://a.test/', true, true], ['wss://a.test/', true, true], ['data:image/png;base64,AA==', true, true],
    ['blob:http://a.test/uuid', true, true], ['about:srcdoc', true, true],
    ['file:///etc/passwd', true, false], ['chrome-extension://x/y', true, false], ['not a url', false, false],
  ] as const)('%s (subresource %s) → ok %s', (url, subresource, ok) => {
    const r = checkScheme(url, { subresource });
    expect(r.ok).toBe(ok);
    if (!r.ok) expect(r.code).toBe('unsupported_scheme');
  });

  it('explains a refused scheme', () => {
    const r = checkScheme(new URL('file:///etc/passwd'));
    expect(r).toMatchObject({ ok: false, scheme: 'file:', reason: 'scheme "file:" is not supported: only http:, https: and about:blank are supported' });
  });
});

describe('matchHost with IPv4-mapped IPv6 hosts', () => {
  it('applies IPv4 rules to the address the mapped form reaches', () => {
    expect(matchHost('[::ffff:7f00:2]', ['127.0.0.*'], []).allowed).toBe(true);
    expect(matchHost('::ffff:127.0.0.1', ['127.0.0.1'], []).allowed).toBe(true);
    expect(matchHost('::ffff:10.0.0.1', ['*'], ['10.0.0.0/8']).allowed).toBe(false);
  });
});
