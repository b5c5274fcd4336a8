import ipaddr from 'ipaddr.js';
import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its family and network-order bytes (4 for IPv4, 16 for IPv6). */
export type IpBytes = { family: 4 | 6; bytes: Uint8Array };

/**
 * A bare IPv4 (dotted decimal, no leading zeros) or IPv6 address (no zone id) as ipaddr.js reads it; null
 * if it is neither. node:net decides what counts as an address (ipaddr.js also takes 0x7f.1, 2130706433
 * and octal).
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (isIPv4(text)) return ipaddr.IPv4.parse(text);
  if (!isIPv6(text) || text.includes('%')) return null;
  // ipaddr.js reads exactly "::a.b.c.d" as the IPv4-mapped ::ffff:a.b.c.d; it is ::a.b.c.d (RFC 4291).
  return ipaddr.IPv6.parse(/^::\d+\.\d+\.\d+\.\d+$/.test(text) ? `0${text}` : text);
}

/** Parses a bare IPv4 (dotted decimal, no leading zeros) or IPv6 address (no zone id); null if it is neither. */
export function parseIp(text: string): IpBytes | null {
  const ip = parseAddress(text);
  if (!ip) return null;
  return { family: ip.kind() === 'ipv4' ? 4 : 6, bytes: Uint8Array.from(ip.toByteArray()) };
}

/** The canonical text of an address: dotted IPv4, or IPv6 as RFC 5952 (lowercase, longest zero run as ::). */
export function formatIp({ bytes }: IpBytes): string {
  const ip = ipaddr.fromByteArray(Array.from(bytes));
  // RFC 5952 section 5: an IPv4-mapped address ends in dotted decimal.
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) return `::ffff:${ip.toIPv4Address().toString()}`;
  return ip.toString();
}

/**
 * The key a per-address limit counts a caller under: an IPv4 address itself (an IPv4-mapped IPv6 address
 * as its IPv4), an IPv6 address by its /64, the block one subscriber or host is given, so that rotating
 * through the addresses of one's own /64 does not escape the limit.
 */
export function rateKeyOfAddress(ip: string): string {
  if (!ip.includes(':')) return ip;
  const parsed = parseIp(ip);
  if (!parsed) return ip;
  const text = formatIp(parsed);
  if (text.startsWith('::ffff:') && text.includes('.')) return text.slice(7);
  return `${formatIp({ family: 6, bytes: networkAddress(parsed.bytes, 64) })}/64`;
}

/** The network address of `bytes` under a prefix length: every bit after the prefix cleared. */
export function networkAddress(bytes: Uint8Array, prefix: number): Uint8Array {
  return bytes.map((byte, i) => {
    const kept = Math.min(8, Math.max(0, prefix - 8 * i));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
}

// IANA hands out global unicast IPv6 only from 2000::/3. ipaddr.js (2.5) calls the rest of the space
// 'unicast' where its own table has no entry, which leaves out ::/96 (IPv4-compatible, deprecated by
// RFC 4291: ::10.0.0.1), 100:0:0:1::/64 (RFC 9780's dummy prefix) and all that IETF keeps in reserve.
// Everything else, IPv4 and IPv6, is ipaddr.js's range() (IANA's special-purpose registries).
const GLOBAL_UNICAST_IPV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why a callback may not go to this address: the name of its special-use range (`loopback`, `private`,
 * `link-local`, `reserved`, `teredo`, `rfc6052` for NAT64, ...), or null for a public unicast address. An
 * IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as its IPv4 address; every other IPv6 form that
 * carries an IPv4 address (NAT64, 6to4, Teredo) is refused whatever it carries.
 */
export function nonPublicAddressKind(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return 'not a plain IP address';
  const ip = parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  const range: string = ip.range();
  if (range !== 'unicast') return range.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  if (ip instanceof ipaddr.IPv6 && !ip.match(GLOBAL_UNICAST_IPV6)) return 'not-global-unicast';
  return null;
}
