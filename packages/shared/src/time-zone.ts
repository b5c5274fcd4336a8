// Time zones as users give them: a UTC offset ("+07:00", "UTC-3", "+0530") or an IANA name
// ("Asia/Shanghai"). The server reads filter dates in the user's zone and the console shows instants in
// it; both use this arithmetic so a date means the same instant on either side. SQL's AT TIME ZONE is not
// used: it reads "+07" as a POSIX zone and flips its sign.

const OFFSET = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
// The widest offset in use is Kiribati's +14:00; beyond ±14:00 a zone is a typo.
const MAX_OFFSET_MINUTES = 14 * 60;

/** "+05:30" -> 330, "UTC-3" -> -180; null when the text is not a UTC offset. */
export function parseOffsetMinutes(zone: string): number | null {
  const match = OFFSET.exec(zone.trim());
  if (!match) return null;
  const [, sign, hours, minutes = '0'] = match;
  const total = Number(hours) * 60 + Number(minutes);
  if (Number(minutes) > 59 || total > MAX_OFFSET_MINUTES) return null;
  return sign === '-' ? -total : total;
}

// Building an Intl.DateTimeFormat costs more than a database round trip: one per zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone);
  if (formatter !== undefined) return formatter;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    formatter = null;
  }
  // Zones are a few hundred names; a flood of invalid ones is not kept.
  if (formatter || formatters.size < 1000) formatters.set(zone, formatter);
  return formatter;
}

/** A UTC offset within ±14:00, or a zone name this runtime knows. */
export function isValidTimeZone(zone: string): boolean {
  if (OFFSET.test(zone.trim())) return parseOffsetMinutes(zone) !== null;
  return zone !== '' && formatterOf(zone) !== null;
}

// A zone's offset at an instant never changes. Finding it (formatToParts) took 0.06-0.16 ms of CPU per list
// request with a time range (a range asks eight times), and the same filter comes again with each page:
// the offsets found are kept, a bounded number of them.
const offsets = new Map<string, number>();
const MAX_OFFSETS = 10_000;

/** The zone's offset from UTC, in minutes, at the given instant. Throws a RangeError for an unknown zone. */
export function offsetMinutesAt(zone: string, at: Date): number {
  const fixed = parseOffsetMinutes(zone);
  if (fixed !== null) return fixed;
  const key = `${zone}|${at.getTime()}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = offsetOf(zone, at);
    if (offsets.size >= MAX_OFFSETS) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function offsetOf(zone: string, at: Date): number {
  const formatter = zone === '' ? null : formatterOf(zone);
  if (!formatter) throw new RangeError(`Not a time zone: ${zone}`);
  const parts = formatter.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / MINUTE_MS);
}

/**
 * The instant a local wall-clock time ("2026-11-21T08:30:00", or a date alone for its midnight) happens
 * in the zone. Across a daylight-saving change it does what a clock on the wall does: a time that happens
 * twice (clocks set back) is its first occurrence; a time that never happens (clocks set forward) is read
 * with the offset before the change, so 02:30 on a spring-forward night is 03:30 the new time.
 */
export function zonedTimeToUtc(local: string, zone: string): Date {
  const naive = new Date(`${local.length === 10 ? `${local}T00:00:00` : local}Z`);
  if (Number.isNaN(naive.getTime())) throw new RangeError(`Not a date: ${local}`);
  const wall = naive.getTime();
  // The offsets a day either side: the same when no change is near, before and after one when it is.
  const before = offsetMinutesAt(zone, new Date(wall - DAY_MS));
  const after = offsetMinutesAt(zone, new Date(wall + DAY_MS));
  const matching = [...new Set([before, after])]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => wall - offsetMinutesAt(zone, new Date(instant)) * MINUTE_MS === instant);
  return new Date(matching.length > 0 ? Math.min(...matching) : wall - before * MINUTE_MS);
}

/** The wall-clock time of an instant in the zone: "2026-11-22T01:30:00". */
export function utcToZonedTime(at: Date, zone: string): string {
  return new Date(at.getTime() + offsetMinutesAt(zone, at) * MINUTE_MS).toISOString().slice(0, 19);
}

/** "YYYY-MM-DD" of the instant in the zone. */
export function localDate(at: Date, zone: string): string {
  return utcToZonedTime(at, zone).slice(0, 10);
}

/** [start, end) of a local day in the zone. */
export function dayRange(day: string, zone: string): { start: Date; end: Date } {
  const start = zonedTimeToUtc(day, zone);
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { start, end: zonedTimeToUtc(next.toISOString().slice(0, 10), zone) };
}
