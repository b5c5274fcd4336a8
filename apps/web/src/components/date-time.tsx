import { useCurrentUser } from '../lib/auth/get-current-user.ts';
import { browserTimeZone, formatDateTime } from '../lib/date-time.ts';

/** The zone timestamps are shown in: the user's saved one, else the browser's. */
export function useTimeZone(): string {
  return useCurrentUser()?.timezone || browserTimeZone();
}

export function DateTime({
  value,
  seconds = true,
  dateOnly = false,
}: {
  value: string | number | Date | null | undefined;
  seconds?: boolean;
  dateOnly?: boolean;
}) {
  const timeZone = useTimeZone();
  if (value === null || value === undefined || value === '') return <span>-</span>;
  const iso = value instanceof Date ? value.toISOString() : String(value);
  return <time dateTime={iso}>{formatDateTime(value, timeZone, { seconds, dateOnly })}</time>;
}
