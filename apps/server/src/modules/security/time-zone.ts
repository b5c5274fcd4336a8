import type { FastifyRequest } from 'fastify';
import { isValidTimeZone } from '../../lib/timezone.ts';

const OFFSET = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/** "+7", "UTC+07", "+0700" -> "+07:00"; an IANA name -> its canonical spelling; null when not a zone. */
export function normalizeTimeZone(raw: string): string | null {
  const zone = raw.trim();
  if (!zone || !isValidTimeZone(zone)) return null;
  const match = OFFSET.exec(zone);
  if (match) {
    const [, sign, hours, minutes = '00'] = match;
    return `${sign}${hours.padStart(2, '0')}:${minutes}`;
  }
  // Keep the name the user chose (ICU would turn Asia/Ho_Chi_Minh into Asia/Saigon), fixing only its case.
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  if (resolved.toLowerCase() === zone.toLowerCase()) return resolved;
  const known = Intl.supportedValuesOf('timeZone').find((name) => name.toLowerCase() === zone.toLowerCase());
  return known ?? zone;
}

/**
 * The time zone that "today" and date filters use for this request (DESIGN section 2): the user's saved
 * zone when set, else the browser's X-Timezone header, else UTC.
 */
export function requestTimeZone(request: FastifyRequest): string {
  const saved = request.auth?.user.timezone;
  if (saved && isValidTimeZone(saved)) return saved;
  const header = request.headers['x-timezone'];
  const sent = typeof header === 'string' ? normalizeTimeZone(header) : null;
  return sent ?? 'UTC';
}
