import { isValidTimeZone, utcToZonedTime } from '@paydesk/shared/time-zone.ts';

// Timestamps are shown in the user's time zone: their saved one (UTC offset "+07:00" or an IANA name)
// from GET /api/merchant/user, else the browser's. The arithmetic is the server's (packages/shared).

export const browserTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/** "2024-05-01 08:30:00" in the given zone (an unknown one falls back to the browser's); an invalid input comes back as it was. */
export function formatDateTime(
  value: string | number | Date,
  timeZone: string | null | undefined,
  { seconds = true, dateOnly = false } = {},
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const browser = browserTimeZone();
  const zone = timeZone && isValidTimeZone(timeZone) ? timeZone : isValidTimeZone(browser) ? browser : 'UTC';
  const local = utcToZonedTime(date, zone);
  if (dateOnly) return local.slice(0, 10);
  return `${local.slice(0, 10)} ${local.slice(11, seconds ? 19 : 16)}`;
}
