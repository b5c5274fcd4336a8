// Timestamps are shown in the user's time zone: their saved one (UTC offset "+07:00" or an IANA name)
// from GET /api/merchant/user, else the browser's.

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

export const browserTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

const pad = (n: number) => String(n).padStart(2, '0');

/** "2024-05-01 08:30:00" in the given zone; an invalid input comes back as it was. */
export function formatDateTime(
  value: string | number | Date,
  timeZone: string | null | undefined,
  { seconds = true, dateOnly = false } = {},
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  let zone = timeZone || browserTimeZone();
  let instant = date;
  const offset = OFFSET.exec(zone);
  if (offset) {
    const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === '-' ? -1 : 1);
    instant = new Date(date.getTime() + minutes * 60_000);
    zone = 'UTC';
  }
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(instant);
  } catch {
    // An unknown zone name: the browser's zone rather than nothing.
    return formatDateTime(value, browserTimeZone(), { seconds, dateOnly });
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const day = `${part('year')}-${pad(part('month'))}-${pad(part('day'))}`;
  if (dateOnly) return day;
  const time = `${pad(part('hour'))}:${pad(part('minute'))}${seconds ? `:${pad(part('second'))}` : ''}`;
  return `${day} ${time}`;
}
