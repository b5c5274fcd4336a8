import { ERROR_CODES } from '@paydesk/shared';
import { normalizeLocalTime } from '@paydesk/shared/funds/funds.schemas.ts';
import { isValidTimeZone, zonedTimeToUtc } from '@paydesk/shared/time-zone.ts';
import { ValidationError } from './errors.ts';

// The arithmetic (offsets, zone names, local time <-> instant) is shared with the console.
export { isValidTimeZone, offsetMinutesAt, zonedTimeToUtc } from '@paydesk/shared/time-zone.ts';

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
      ERROR_CODES.invalidTimeZone,
    );
  }
  return sent;
}

/**
 * A list filter's local start and end times as instants: the start inclusive, the end inclusive to the
 * second (a date alone: the whole day), so `to` is exclusive.
 */
export function localRangeToUtc(
  start: string | undefined,
  end: string | undefined,
  timeZone: string,
): { from?: Date; to?: Date } {
  return {
    from: start ? zonedTimeToUtc(normalizeLocalTime(start, 'start'), timeZone) : undefined,
    to: end ? new Date(zonedTimeToUtc(normalizeLocalTime(end, 'end'), timeZone).getTime() + 1000) : undefined,
  };
}

/** An instant as the API writes it (ISO 8601, UTC); null stays null. */
export const isoOrNull = (at: Date | null): string | null => at?.toISOString() ?? null;
