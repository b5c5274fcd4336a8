import { describe, expect, it } from 'vitest';
import { formatIp, networkAddress, nonPublicAddressKind, parseIp, rateKeyOfAddress } from './ip-address.ts';

const canonical = (text: string) => {
  const ip = parseIp(text);
  return ip && formatIp(ip);
};

describe('parsing and writing IP addresses', () => {
  it('writes IPv6 as RFC 5952: lowercase, no leading zeros, the longest zero run as ::', () => {
    expect(canonical('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonical('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1'); // first of two equal runs
    expect(canonical('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1'); // one zero group stays
    expect(canonical('0:0:0:0:0:0:0:0')).toBe('::');
    expect(canonical('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonical('fe80:0:0:0:0:0:0:0')).toBe('fe80::');
    expect(canonical('::FFFF:CB00:7105')).toBe('::ffff:203.0.113.5');
    expect(canonical('::ffff:203.0.113.5')).toBe('::ffff:203.0.113.5');
    expect(canonical('64:ff9b::192.0.2.33')).toBe('64:ff9b::c000:221');
    expect(canonical('::127.0.0.1')).toBe('::7f00:1'); // IPv4-compatible, not IPv4-mapped
  });

  it('takes IPv4 in dotted decimal only, and no zone ids', () => {
    expect(canonical('203.0.113.5')).toBe('203.0.113.5');
    for (const text of [
      '010.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '0x7f.0.0.1',
      '2130706433',
      'fe80::1%eth0',
      '1::2::3',
      ' 1.2.3.4',
      '',
    ]) {
      expect(parseIp(text)).toBeNull();
    }
  });

  it('finds the network of an address', () => {
    const ip = parseIp('10.1.2.3')!;
    expect(formatIp({ family: 4, bytes: networkAddress(ip.bytes, 8) })).toBe('10.0.0.0');
    expect(formatIp({ family: 4, bytes: networkAddress(ip.bytes, 23) })).toBe('10.1.2.0');
    expect(formatIp({ family: 4, bytes: networkAddress(ip.bytes, 0) })).toBe('0.0.0.0');
    const v6 = parseIp('2001:db8:abcd:12ff::1')!;
    expect(formatIp({ family: 6, bytes: networkAddress(v6.bytes, 52) })).toBe('2001:db8:abcd:1000::');
  });
});

// Every special-use range of IPv4 and IPv6 (IANA's registries), each with an address a notify URL could
// name, and what the check calls it. The first four are the ones the audit found the hand table missed.
const SPECIAL_USE: [address: string, range: string][] = [
  ['192.0.0.8', 'reserved'], // 192.0.0.0/24, IETF protocol assignments
  ['198.18.0.1', 'reserved'], // 198.18.0.0/15, benchmarking
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'], // 2001::/32
  ['64:ff9b:1::a00:1', 'rfc6052'], // 64:ff9b:1::/48, local-use NAT64
  ['::ffff:10.0.0.1', 'private'], // IPv4-mapped: judged as the IPv4 address
  ['::ffff:a00:1', 'private'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.20.30.40', 'private'],
  ['100.64.0.1', 'carrier-grade-nat'],
  ['100.127.255.255', 'carrier-grade-nat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.170', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['192.31.196.1', 'as112'],
  ['192.52.193.1', 'amt'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['192.168.100.1', 'private'],
  ['192.175.48.1', 'as112'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.5', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::a00:1', 'not-global-unicast'], // IPv4-compatible (::10.0.0.1), deprecated
  ['::127.0.0.1', 'not-global-unicast'],
  ['::8.8.8.8', 'not-global-unicast'],
  ['::ffff:0:a00:1', 'rfc6145'], // IPv4-translated
  ['64:ff9b::a00:1', 'rfc6052'], // NAT64 of 10.0.0.1
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['64:ff9b::808:808', 'rfc6052'], // NAT64 of a public address: still refused
  ['100::1', 'discard'],
  ['100:0:0:1::1', 'not-global-unicast'], // RFC 9780's dummy prefix
  ['2001::1', 'teredo'],
  ['2001:1::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'amt'],
  ['2001:4:112::1', 'as112v6'],
  ['2001:10::1', 'deprecated-orchid'],
  ['2001:20::1', 'orchid2'],
  ['2001:db8::1', 'reserved'],
  ['2002:a00:1::1', '6to4'],
  ['2002:c0a8:101::1', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['2620:4f:8000::1', 'as112v6'],
  ['3fff::1', 'reserved'],
  ['4000::1', 'not-global-unicast'],
  ['fbff:ffff::1', 'not-global-unicast'],
  ['fe7f:ffff::1', 'not-global-unicast'],
  ['5f00::1', 'segment-routing'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'deprecated-site-local'],
  ['ff02::1', 'multicast'],
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.215.14',
  '100.63.255.255',
  '100.128.0.0',
  '172.32.0.1',
  '172.15.255.255',
  '169.255.0.1',
  '11.0.0.1',
  '192.0.1.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '::ffff:8.8.8.8',
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82a::200e',
  '2001:200::1', // 2001::/23 ends at 2001:1ff:...
  '3ffe:ffff::1',
];

describe('which addresses a callback may not reach', () => {
  it.each(SPECIAL_USE)('refuses %s (%s)', (address) => {
    expect(nonPublicAddressKind(address)).not.toBeNull();
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(nonPublicAddressKind(address)).toBeNull();
  });

  it('names the range it found, as the callback log shows it', () => {
    expect(
      Object.fromEntries(SPECIAL_USE.map(([address]) => [address, nonPublicAddressKind(address)])),
    ).toEqual(Object.fromEntries(SPECIAL_USE));
  });

  it('is not fooled by spellings that are not plain addresses', () => {
    for (const text of [
      'localhost',
      '0x7f.0.0.1',
      '2130706433',
      '017700000001',
      '127.1',
      '',
      '::ffff:10.0.0.1x',
    ]) {
      expect(nonPublicAddressKind(text)).toBe('not a plain IP address');
    }
  });
});

describe('the key a per-address limit counts a caller under', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:42:7::1', '2001:db8:42:7::/64'],
    ['2001:DB8:42:7:ffff:ffff:ffff:ffff', '2001:db8:42:7::/64'],
    ['::1', '::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(rateKeyOfAddress(ip)).toBe(key);
  });
});
