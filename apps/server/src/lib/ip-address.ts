import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its family and network-order bytes (4 for IPv4, 16 for IPv6). */
export type IpBytes = { family: 4 | 6; bytes: Uint8Array };

/** Parses a bare IPv4 (dotted decimal, no leading zeros) or IPv6 address (no zone id); null if it is neither. */
export function parseIp(text: string): IpBytes | null {
  if (isIPv4(text)) return { family: 4, bytes: Uint8Array.from(text.split('.'), Number) };
  if (!isIPv6(text) || text.includes('%')) return null;
  return { family: 6, bytes: ipv6Bytes(text) };
}

function ipv6Bytes(text: string): Uint8Array {
  const groupsOf = (part: string): number[] => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number);
        groups.push((a << 8) | b, (c << 8) | d);
      } else {
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  const gap = text.indexOf('::');
  const head = groupsOf(gap < 0 ? text : text.slice(0, gap));
  const tail = gap < 0 ? [] : groupsOf(text.slice(gap + 2));
  const groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** The canonical text of an address: dotted IPv4, or IPv6 as RFC 5952 (lowercase, longest zero run as ::). */
export function formatIp({ family, bytes }: IpBytes): string {
  if (family === 4) return bytes.join('.');
  const mapped = mappedIpv4(bytes);
  if (mapped) return `::ffff:${mapped.join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1]);
  let bestStart = -1;
  let bestLength = 1; // RFC 5952: a single zero group is not shortened
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - i > bestLength) [bestStart, bestLength] = [i, end - i];
    i = end;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((group) => group.toString(16))
      .join(':');
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d), else null. */
export function mappedIpv4(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length !== 16) return null;
  for (let i = 0; i < 10; i += 1) if (bytes[i] !== 0) return null;
  return bytes[10] === 0xff && bytes[11] === 0xff ? bytes.slice(12) : null;
}

/** The network address of `bytes` under a prefix length: every bit after the prefix cleared. */
export function networkAddress(bytes: Uint8Array, prefix: number): Uint8Array {
  return bytes.map((byte, i) => {
    const kept = Math.min(8, Math.max(0, prefix - 8 * i));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
}

/** Whether `bytes` lies in the network `network`/`prefix` (both of the same family). */
export function inNetwork(bytes: Uint8Array, network: Uint8Array, prefix: number): boolean {
  if (bytes.length !== network.length) return false;
  const masked = networkAddress(bytes, prefix);
  return masked.every((byte, i) => byte === network[i]);
}
