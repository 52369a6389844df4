import { describe, expect, it } from 'vitest';
import { classifyAddress, invalidAllowPrivate, isBlockedAddress, parseHostAsIp } from '../../../manifests/net/address.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'], ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'], ['127.0.0.2', 'loopback'], ['::1', 'loopback'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['192.168.1.1', 'private'], ['fec0::1', 'private'],
    ['169.254.1.1', 'link_local'], ['fe80::1', 'link_local'],
    ['169.254.169.254', 'metadata'], ['fd00:ec2::254', 'metadata'], ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'cgnat'], ['100.127.255.254', 'cgnat'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'], ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'], ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'], ['240.0.0.1', 'reserved'], ['2001:db8::1', 'reserved'], ['2001::1', 'reserved'],
    ['fc00::1', 'ula'], ['fd12:3456::1', 'ula'],
    ['not-an-ip', 'invalid'], ['', 'invalid'],
  ])('%s is %s', (ip, category) => {
    expect(classifyAddress(ip)).toBe(category);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'], ['::ffff:10.0.0.1', 'private'], ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::808:808', 'public'], ['2002:7f00:1::', 'loopback'], ['::127.0.0.1', 'loopback'],
  ])('IPv4 inside IPv6: %s is %s', (ip, category) => {
    expect(classifyAddress(ip)).toBe(category);
  });

  it.each([
    ['2130706433', 'loopback'], ['0177.0.0.1', 'loopback'], ['0x7f.0.0.1', 'loopback'], ['0x7f000001', 'loopback'],
    ['127.1', 'loopback'], ['10.1', 'private'], ['0xa9.254.169.254', 'metadata'], ['0', 'unspecified'],
  ])('odd IPv4 spelling %s is %s', (ip, category) => {
    expect(classifyAddress(ip)).toBe(category);
  });
});

describe('parseHostAsIp', () => {
  it.each([
    ['2130706433', '127.0.0.1'], ['0177.0.0.1', '127.0.0.1'], ['0x7f.0.0.1', '127.0.0.1'], ['127.1', '127.0.0.1'],
    ['10.1', '10.0.0.1'], ['127.0.0.1.', '127.0.0.1'], ['[::1]', '::1'], ['::1', '::1'], ['[0:0:0:0:0:0:0:1]', '::1'],
    ['example.org', null], ['1.2.3.4.5', null], ['foo.123', null], ['10.0.0.0/8', null], ['[not-ip]', null],
  ])('%s → %s', (host, ip) => {
    expect(parseHostAsIp(host)).toBe(ip);
  });
});

describe('isBlockedAddress', () => {
  it.each([
    ['8.8.8.8', [], false],
    ['127.0.0.1', [], true],
    ['127.0.0.1', ['127.0.0.1'], false],
    ['127.0.0.2', ['127.0.0.1'], true],
    ['127.0.0.2', ['127.0.0.0/8'], false],
    ['::ffff:127.0.0.1', ['127.0.0.1'], false],
    ['127.0.0.1', ['::ffff:127.0.0.1'], false],
    ['127.0.0.1', ['::ffff:127.0.0.0/104'], false],
    ['10.9.8.7', ['10.0.0.0/8'], false],
    ['fd00::5', ['fc00::/7'], false],
    ['::1', ['127.0.0.1'], true],
    ['169.254.169.254', ['169.254.0.0/16'], true],   // metadata needs an exact entry
    ['169.254.169.254', ['169.254.169.254'], false],
    ['169.254.1.1', ['169.254.0.0/16'], false],
    ['192.168.1.1', ['garbage', '10.0.0.0/99'], true],
  ] as const)('%s with allow_private %j → blocked %s', (ip, allow, expected) => {
    expect(isBlockedAddress(ip, allow).blocked).toBe(expected);
  });

  it('names the category', () => {
    expect(isBlockedAddress('100.64.1.1', [])).toEqual({ blocked: true, category: 'cgnat' });
  });

  it('lists allow_private entries that are neither IP nor CIDR', () => {
    expect(invalidAllowPrivate(['127.0.0.1', '10.0.0.0/8', 'localhost', '1.2.3.4/40'])).toEqual(['localhost', '1.2.3.4/40']);
  });
});
