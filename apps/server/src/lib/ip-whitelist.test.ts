import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipAllowed, parseIpWhitelist } from './ip-whitelist.ts';

const ipv4 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');

describe('parsing a whitelist', () => {
  it('takes one IPv4, IPv6 or CIDR per line, trimmed, blank lines skipped, normalised and deduplicated', () => {
    const text = [
      '  203.0.113.5  ',
      '',
      '2001:0DB8::0001',
      '\t10.0.0.0/8',
      '2001:db8:abcd::/48',
      '2001:db8::1',
      '203.0.113.5/32',
      '2001:DB8:0:0:0:0:0:1/128',
      '::FFFF:198.51.100.7',
      '   ',
    ].join('\r\n');
    expect(parseIpWhitelist(text)).toEqual({
      ok: true,
      entries: ['203.0.113.5', '2001:db8::1', '10.0.0.0/8', '2001:db8:abcd::/48', '::ffff:198.51.100.7'],
    });
  });

  it('is an empty list for empty text (which allows nothing)', () => {
    expect(parseIpWhitelist('')).toEqual({ ok: true, entries: [] });
    expect(parseIpWhitelist('\n  \n')).toEqual({ ok: true, entries: [] });
  });

  it('names the line and the value that is not an address', () => {
    expect(parseIpWhitelist('203.0.113.5\n300.1.1.1\n10.0.0.1')).toEqual({
      ok: false,
      line: 2,
      value: '300.1.1.1',
      message: 'Line 2: "300.1.1.1" is not an IPv4 or IPv6 address or CIDR block.',
    });
    for (const value of [
      'example.com',
      '10.0.0.1/',
      '10.0.0.1/8/8',
      '10.0.0.0/x',
      '10.0.0.0/-1',
      'fe80::1%eth0',
      '010.0.0.1',
      '1.2.3.4 5.6.7.8',
    ]) {
      const result = parseIpWhitelist(`\n${value}`);
      expect(result).toMatchObject({ ok: false, line: 2, value });
      expect(!result.ok && result.message).toBe(
        `Line 2: "${value}" is not an IPv4 or IPv6 address or CIDR block.`,
      );
    }
  });

  it('refuses commas, saying to put one entry per line', () => {
    expect(parseIpWhitelist('1.1.1.1, 8.8.8.8')).toEqual({
      ok: false,
      line: 1,
      value: '1.1.1.1, 8.8.8.8',
      message: 'Line 1: "1.1.1.1, 8.8.8.8" contains a comma; put one address or CIDR block on each line.',
    });
  });

  it('refuses a CIDR with host bits set, naming the network that was probably meant', () => {
    expect(parseIpWhitelist('1.1.1.1\n8.8.8.8\n10.0.0.1/8')).toEqual({
      ok: false,
      line: 3,
      value: '10.0.0.1/8',
      message: 'Line 3: 10.0.0.1/8 has host bits set; did you mean 10.0.0.0/8?',
    });
    expect(parseIpWhitelist('2001:DB8::1/32')).toMatchObject({
      message: 'Line 1: 2001:DB8::1/32 has host bits set; did you mean 2001:db8::/32?',
    });
    expect(parseIpWhitelist('192.168.1.130/25')).toMatchObject({
      message: 'Line 1: 192.168.1.130/25 has host bits set; did you mean 192.168.1.128/25?',
    });
  });

  it('refuses a prefix out of range for its family', () => {
    expect(parseIpWhitelist('10.0.0.0/33')).toEqual({
      ok: false,
      line: 1,
      value: '10.0.0.0/33',
      message: 'Line 1: 10.0.0.0/33 has a prefix out of range; IPv4 prefixes run from 0 to 32.',
    });
    expect(parseIpWhitelist('2001:db8::/129')).toMatchObject({
      message: 'Line 1: 2001:db8::/129 has a prefix out of range; IPv6 prefixes run from 0 to 128.',
    });
    expect(parseIpWhitelist('10.0.0.0/0032')).toMatchObject({ ok: true, entries: ['10.0.0.0'] });
  });

  it('refuses more entries than the limit, naming it; duplicates do not count', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `10.0.${i}.1`);
    expect(parseIpWhitelist([...hundred, '10.0.0.1', '10.0.99.1'].join('\n'))).toMatchObject({ ok: true });
    expect(parseIpWhitelist([...hundred, '10.0.0.1', '192.0.2.1'].join('\n'))).toEqual({
      ok: false,
      line: 102,
      value: '192.0.2.1',
      message: 'Line 102: the whitelist holds at most 100 entries; remove some or use CIDR blocks.',
    });
    expect(parseIpWhitelist('1.1.1.1\n2.2.2.2\n3.3.3.3', 2)).toMatchObject({
      ok: false,
      line: 3,
      message: 'Line 3: the whitelist holds at most 2 entries; remove some or use CIDR blocks.',
    });
  });
});

describe('checking a caller against the whitelist', () => {
  const entries = (text: string) => {
    const result = parseIpWhitelist(text);
    if (!result.ok) throw new Error(result.message);
    return result.entries;
  };

  it('matches single IPv4 and IPv6 addresses exactly', () => {
    const list = entries('203.0.113.5\n2001:db8::1');
    expect(ipAllowed('203.0.113.5', list)).toBe(true);
    expect(ipAllowed('203.0.113.6', list)).toBe(false);
    expect(ipAllowed('2001:db8::1', list)).toBe(true);
    expect(ipAllowed('2001:DB8:0:0:0:0:0:1', list)).toBe(true);
    expect(ipAllowed('2001:db8::2', list)).toBe(false);
  });

  it('matches an IPv4 CIDR inside and at both edges, not outside', () => {
    const list = entries('192.168.1.128/25');
    expect(ipAllowed('192.168.1.200', list)).toBe(true);
    expect(ipAllowed('192.168.1.128', list)).toBe(true);
    expect(ipAllowed('192.168.1.255', list)).toBe(true);
    expect(ipAllowed('192.168.1.127', list)).toBe(false);
    expect(ipAllowed('192.168.2.0', list)).toBe(false);
  });

  it('matches an IPv6 CIDR inside and at both edges, not outside', () => {
    const list = entries('2001:db8:abcd::/48');
    expect(ipAllowed('2001:db8:abcd:12::7', list)).toBe(true);
    expect(ipAllowed('2001:db8:abcd::', list)).toBe(true);
    expect(ipAllowed('2001:db8:abcd:ffff:ffff:ffff:ffff:ffff', list)).toBe(true);
    expect(ipAllowed('2001:db8:abcc:ffff:ffff:ffff:ffff:ffff', list)).toBe(false);
    expect(ipAllowed('2001:db8:abce::', list)).toBe(false);
    expect(ipAllowed('203.0.113.5', list)).toBe(false);
  });

  it('matches an IPv4 client that a dual-stack socket reports as IPv4-mapped IPv6', () => {
    expect(ipAllowed('::ffff:203.0.113.5', entries('203.0.113.5'))).toBe(true);
    expect(ipAllowed('::ffff:203.0.113.5', entries('203.0.113.0/24'))).toBe(true);
    expect(ipAllowed('::ffff:cb00:7105', entries('203.0.113.0/24'))).toBe(true);
    expect(ipAllowed('::ffff:203.0.114.5', entries('203.0.113.0/24'))).toBe(false);
    expect(ipAllowed('203.0.113.5', entries('::ffff:203.0.113.5'))).toBe(true);
  });

  it('allows nothing with an empty list, and never a malformed client address', () => {
    for (const ip of ['203.0.113.5', '::1', '::ffff:203.0.113.5']) expect(ipAllowed(ip, [])).toBe(false);
    const everything = entries('0.0.0.0/0\n::/0');
    expect(ipAllowed('198.51.100.1', everything)).toBe(true);
    for (const ip of ['', 'unknown', '203.0.113.5 ', '203.0.113.5:443', 'fe80::1%eth0']) {
      expect(ipAllowed(ip, everything)).toBe(false);
    }
  });

  it('ignores stored entries that are not addresses rather than matching everything', () => {
    expect(ipAllowed('203.0.113.5', ['not-an-ip', '203.0.113.0/', '203.0.113.0/x', '203.0.113.0/99'])).toBe(
      false,
    );
    expect(ipAllowed('203.0.113.5', ['garbage', '203.0.113.5'])).toBe(true);
  });

  it('matches every address of a generated IPv4 /n block, and not the addresses just outside it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 1, max: 32 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (seed, prefix, where) => {
          const size = 2 ** (32 - prefix);
          const first = seed - (seed % size);
          const last = first + size - 1;
          const list = entries(`${ipv4(first)}/${prefix}`);
          for (const inside of [first, last, first + Math.floor(where * size)]) {
            expect(ipAllowed(ipv4(inside), list)).toBe(true);
            expect(ipAllowed(`::ffff:${ipv4(inside)}`, list)).toBe(true);
          }
          if (last < 0xffffffff) expect(ipAllowed(ipv4(last + 1), list)).toBe(false);
          if (first > 0) expect(ipAllowed(ipv4(first - 1), list)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
