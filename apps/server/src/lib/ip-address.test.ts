import { describe, expect, it } from 'vitest';
import { formatIp, inNetwork, networkAddress, parseIp } from './ip-address.ts';

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

  it('finds the network of an address and whether another address is in it', () => {
    const ip = parseIp('10.1.2.3')!;
    expect(formatIp({ family: 4, bytes: networkAddress(ip.bytes, 8) })).toBe('10.0.0.0');
    expect(formatIp({ family: 4, bytes: networkAddress(ip.bytes, 23) })).toBe('10.1.2.0');
    expect(formatIp({ family: 4, bytes: networkAddress(ip.bytes, 0) })).toBe('0.0.0.0');
    const v6 = parseIp('2001:db8:abcd:12ff::1')!;
    expect(formatIp({ family: 6, bytes: networkAddress(v6.bytes, 52) })).toBe('2001:db8:abcd:1000::');
    const net = parseIp('172.16.0.0')!.bytes;
    expect(inNetwork(parseIp('172.31.255.255')!.bytes, net, 12)).toBe(true);
    expect(inNetwork(parseIp('172.32.0.0')!.bytes, net, 12)).toBe(false);
    expect(inNetwork(v6.bytes, net, 12)).toBe(false);
  });
});
