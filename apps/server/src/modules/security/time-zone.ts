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
