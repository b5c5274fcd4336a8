import { BlockList } from 'node:net';
import { formatIp, networkAddress, parseIp } from './ip-address.ts';

export type IpWhitelistParseResult =
  { ok: true; entries: string[] } | { ok: false; line: number; value: string; message: string };

type LineResult = { entry: string } | { message: string };

/**
 * A merchant's whitelist text, one IPv4, IPv6 or CIDR block per line, as normalised unique entries, or the
 * first wrong line with a message a person can act on. A CIDR of a single address (/32, /128) is stored as
 * that address.
 */
export function parseIpWhitelist(text: string, max = 100): IpWhitelistParseResult {
  const entries: string[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const value = raw.trim();
    if (value === '') continue;
    const line = index + 1;
    const result = parseLine(value);
    if ('message' in result) return { ok: false, line, value, message: `Line ${line}: ${result.message}` };
    if (seen.has(result.entry)) continue;
    if (entries.length >= max) {
      return {
        ok: false,
        line,
        value,
        message: `Line ${line}: the whitelist holds at most ${max} entries; remove some or use CIDR blocks.`,
      };
    }
    seen.add(result.entry);
    entries.push(result.entry);
  }
  return { ok: true, entries };
}

function parseLine(value: string): LineResult {
  const notAnAddress = { message: `"${value}" is not an IPv4 or IPv6 address or CIDR block.` };
  if (value.includes(',')) {
    return { message: `"${value}" contains a comma; put one address or CIDR block on each line.` };
  }
  const [address, prefixText, extra] = value.split('/');
  const ip = parseIp(address);
  if (!ip || extra !== undefined) return notAnAddress;
  if (prefixText === undefined) return { entry: formatIp(ip) };
  const maxPrefix = ip.family === 4 ? 32 : 128;
  if (!/^\d+$/.test(prefixText)) return notAnAddress;
  const prefix = Number(prefixText);
  if (prefix > maxPrefix) {
    return {
      message: `${value} has a prefix out of range; IPv${ip.family} prefixes run from 0 to ${maxPrefix}.`,
    };
  }
  if (prefix === maxPrefix) return { entry: formatIp(ip) };
  const network = formatIp({ family: ip.family, bytes: networkAddress(ip.bytes, prefix) });
  const normalised = formatIp(ip);
  if (network !== normalised) {
    return { message: `${value} has host bits set; did you mean ${network}/${prefix}?` };
  }
  return { entry: `${network}/${prefix}` };
}

/**
 * Whether a client address is in the whitelist entries (as parseIpWhitelist returns them). An empty list
 * allows nothing; an IPv4-mapped IPv6 client (::ffff:203.0.113.5) matches IPv4 entries and vice versa.
 */
export function ipAllowed(ip: string, entries: string[]): boolean {
  const client = parseIp(ip);
  if (!client || entries.length === 0) return false;
  return blockListOf(entries).check(formatIp(client), client.family === 4 ? 'ipv4' : 'ipv6');
}

/** One BlockList per entries array: a gateway process checks the same remembered whitelist on every call. */
const blockLists = new WeakMap<string[], BlockList>();

function blockListOf(entries: string[]): BlockList {
  const known = blockLists.get(entries);
  if (known) return known;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefixText] = entry.split('/');
    const parsed = parseIp(address);
    if (!parsed) continue; // not from parseIpWhitelist: it can match nothing (nor can a bad prefix below)
    const type = parsed.family === 4 ? 'ipv4' : 'ipv6';
    const prefix = /^\d{1,3}$/.test(prefixText ?? '') ? Number(prefixText) : NaN;
    if (prefixText === undefined) list.addAddress(address, type);
    else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (parsed.family === 4 ? 32 : 128)) {
      list.addSubnet(address, prefix, type);
    }
  }
  blockLists.set(entries, list);
  return list;
}
