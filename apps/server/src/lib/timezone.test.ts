import { describe, expect, it } from 'vitest';
import { dayRange, isValidTimeZone, localDate, resolveTimeZone, zonedTimeToUtc } from './timezone.ts';

describe('time zones', () => {
  it('accepts IANA names and UTC offsets, refuses the rest', () => {
    expect(isValidTimeZone('Asia/Ho_Chi_Minh')).toBe(true);
    expect(isValidTimeZone('+07:00')).toBe(true);
    expect(isValidTimeZone('UTC-03:30')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('+25:00')).toBe(false);
  });

  it('finds the UTC instants of a local day', () => {
    expect(dayRange('2026-11-21', '+08:00')).toEqual({
      start: new Date('2026-11-20T16:00:00Z'),
      end: new Date('2026-11-21T16:00:00Z'),
    });
    expect(dayRange('2026-11-21', 'America/Sao_Paulo').start).toEqual(new Date('2026-11-21T03:00:00Z'));
  });

  it('handles a daylight-saving day (23 hours long in New York in March)', () => {
    const { start, end } = dayRange('2026-03-08', 'America/New_York');
    expect((end.getTime() - start.getTime()) / 3600000).toBe(23);
    expect(zonedTimeToUtc('2026-03-08T12:00:00', 'America/New_York')).toEqual(
      new Date('2026-03-08T16:00:00Z'),
    );
  });

  it('names the local date of an instant', () => {
    expect(localDate(new Date('2026-11-21T17:30:00Z'), 'Asia/Shanghai')).toBe('2026-11-22');
    expect(localDate(new Date('2026-11-21T17:30:00Z'), '-05:00')).toBe('2026-11-21');
  });

  it('resolves the zone of a request: saved, else the header, else UTC; a bad header is refused', () => {
    expect(resolveTimeZone('+07:00', 'Asia/Shanghai')).toBe('+07:00');
    expect(resolveTimeZone(null, 'Asia/Shanghai')).toBe('Asia/Shanghai');
    expect(resolveTimeZone(null, undefined)).toBe('UTC');
    expect(() => resolveTimeZone(null, 'Mars/Olympus')).toThrow(/X-Timezone/);
  });
});
