import { ValidationError } from './errors.ts';

// Day boundaries in a user's time zone, computed here rather than with SQL's AT TIME ZONE
// (which reads "+07" as a POSIX zone and flips its sign).

const OFFSET = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;

export function isValidTimeZone(zone: string): boolean {
  if (OFFSET.test(zone.trim())) return parseOffsetMinutes(zone) !== null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function parseOffsetMinutes(zone: string): number | null {
  const match = OFFSET.exec(zone.trim());
  if (!match) return null;
  const [, sign, hours, minutes = '0'] = match;
  const total = Number(hours) * 60 + Number(minutes);
  if (Number(hours) > 14 || Number(minutes) > 59) return null;
  return sign === '-' ? -total : total;
}

/** The zone's offset from UTC, in minutes, at the given instant. */
export function offsetMinutesAt(zone: string, at: Date): number {
  const fixed = parseOffsetMinutes(zone);
  if (fixed !== null) return fixed;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000);
}

/** The instant a local wall-clock time ("2026-11-21T00:00:00") happens in the zone. */
export function zonedTimeToUtc(local: string, zone: string): Date {
  const naive = new Date(`${local.length === 10 ? `${local}T00:00:00` : local}Z`);
  if (Number.isNaN(naive.getTime())) throw new RangeError(`Not a date: ${local}`);
  // Two passes settle the offset across a daylight-saving change.
  let guess = new Date(naive.getTime() - offsetMinutesAt(zone, naive) * 60000);
  guess = new Date(naive.getTime() - offsetMinutesAt(zone, guess) * 60000);
  return guess;
}

/** "YYYY-MM-DD" of the instant in the zone. */
export function localDate(at: Date, zone: string): string {
  return new Date(at.getTime() + offsetMinutesAt(zone, at) * 60000).toISOString().slice(0, 10);
}

/** [start, end) of a local day in the zone. */
export function dayRange(day: string, zone: string): { start: Date; end: Date } {
  const start = zonedTimeToUtc(day, zone);
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { start, end: zonedTimeToUtc(next.toISOString().slice(0, 10), zone) };
}

/**
 * The zone "today" and date filters use (DESIGN section 2): the user's saved zone when set, else the
 * browser's X-Timezone header, else UTC. A header that names no zone is refused rather than guessed.
 */
export function resolveTimeZone(
  saved: string | null | undefined,
  header: string | string[] | undefined,
): string {
  if (saved && isValidTimeZone(saved)) return saved;
  const sent = typeof header === 'string' ? header.trim() : '';
  if (!sent) return 'UTC';
  if (!isValidTimeZone(sent)) {
    throw ValidationError.field(
      'timezone',
      'The X-Timezone header must be an IANA time zone or a UTC offset.',
    );
  }
  return sent;
}
