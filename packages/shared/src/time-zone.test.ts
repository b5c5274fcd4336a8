import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dayRange,
  isValidTimeZone,
  localDate,
  offsetMinutesAt,
  parseOffsetMinutes,
  utcToZonedTime,
  zonedTimeToUtc,
} from './time-zone.ts';

const at = (iso: string) => new Date(iso);

describe('UTC offsets', () => {
  it('reads the spellings people use', () => {
    expect(parseOffsetMinutes('+05:30')).toBe(330);
    expect(parseOffsetMinutes('-03:00')).toBe(-180);
    expect(parseOffsetMinutes('+0545')).toBe(345);
    expect(parseOffsetMinutes('UTC+7')).toBe(420);
    expect(parseOffsetMinutes('gmt-09:30')).toBe(-570);
    expect(parseOffsetMinutes(' +00:00 ')).toBe(0);
    expect(parseOffsetMinutes('+14:00')).toBe(840);
  });

  it('refuses what is not an offset or beyond ±14:00', () => {
    expect(parseOffsetMinutes('+14:01')).toBeNull();
    expect(parseOffsetMinutes('-14:30')).toBeNull();
    expect(parseOffsetMinutes('+15:00')).toBeNull();
    expect(parseOffsetMinutes('+05:60')).toBeNull();
    expect(parseOffsetMinutes('Asia/Shanghai')).toBeNull();
    expect(parseOffsetMinutes('5:30')).toBeNull();
    expect(parseOffsetMinutes('')).toBeNull();
  });
});

describe('valid time zones', () => {
  it('accepts IANA names and UTC offsets', () => {
    for (const zone of ['Asia/Ho_Chi_Minh', 'America/Sao_Paulo', 'UTC', '+07:00', 'UTC-03:30', '+05:30']) {
      expect(isValidTimeZone(zone), zone).toBe(true);
    }
  });

  it('refuses unknown names, empty text and offsets out of range', () => {
    for (const zone of ['Mars/Olympus', '', '+25:00', '-15:00', '+07:75', 'Asia']) {
      expect(isValidTimeZone(zone), zone).toBe(false);
    }
  });

  it('says which zone it does not know rather than guessing', () => {
    expect(() => offsetMinutesAt('Mars/Olympus', at('2026-01-01T00:00:00Z'))).toThrow(RangeError);
    expect(() => zonedTimeToUtc('2026-01-01', 'Mars/Olympus')).toThrow(/Not a time zone/);
    expect(() => zonedTimeToUtc('not a date', 'UTC')).toThrow(/Not a date/);
  });
});

describe('local time -> UTC instant', () => {
  it('at fixed offsets, including half and three-quarter hours', () => {
    expect(zonedTimeToUtc('2026-11-21T08:30:00', '+05:30')).toEqual(at('2026-11-21T03:00:00Z'));
    expect(zonedTimeToUtc('2026-11-21T08:30:00', '-03:00')).toEqual(at('2026-11-21T11:30:00Z'));
    expect(zonedTimeToUtc('2026-11-21T00:10:00', '+05:45')).toEqual(at('2026-11-20T18:25:00Z'));
    // Across the date line: local midnight is the previous UTC day, or the same one.
    expect(zonedTimeToUtc('2026-01-01', '+14:00')).toEqual(at('2025-12-31T10:00:00Z'));
    expect(zonedTimeToUtc('2026-01-01', '-12:00')).toEqual(at('2026-01-01T12:00:00Z'));
  });

  it('in named zones, with their summer time', () => {
    expect(zonedTimeToUtc('2026-07-01T12:00:00', 'America/New_York')).toEqual(at('2026-07-01T16:00:00Z'));
    expect(zonedTimeToUtc('2026-01-15T12:00:00', 'America/New_York')).toEqual(at('2026-01-15T17:00:00Z'));
    expect(zonedTimeToUtc('2026-11-21T00:00:00', 'Asia/Kolkata')).toEqual(at('2026-11-20T18:30:00Z'));
  });

  it('a time the spring-forward night skips is read with the offset before the change', () => {
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT; 02:30 never shows on a clock.
    expect(zonedTimeToUtc('2026-03-08T01:59:59', 'America/New_York')).toEqual(at('2026-03-08T06:59:59Z'));
    expect(zonedTimeToUtc('2026-03-08T02:30:00', 'America/New_York')).toEqual(at('2026-03-08T07:30:00Z'));
    expect(zonedTimeToUtc('2026-03-08T03:00:00', 'America/New_York')).toEqual(at('2026-03-08T07:00:00Z'));
  });

  it('a time the fall-back night repeats is its first occurrence', () => {
    // New York, 2026-11-01: 02:00 EDT goes back to 01:00 EST; 01:30 happens at 05:30Z and at 06:30Z.
    expect(zonedTimeToUtc('2026-11-01T01:30:00', 'America/New_York')).toEqual(at('2026-11-01T05:30:00Z'));
    expect(zonedTimeToUtc('2026-11-01T02:00:00', 'America/New_York')).toEqual(at('2026-11-01T07:00:00Z'));
    // Southern hemisphere, other way round: Sydney sets clocks back on 2026-04-05 at 03:00 AEDT.
    expect(zonedTimeToUtc('2026-04-05T02:30:00', 'Australia/Sydney')).toEqual(at('2026-04-04T15:30:00Z'));
  });

  it('a date alone is its midnight', () => {
    expect(zonedTimeToUtc('2026-11-21', 'Asia/Shanghai')).toEqual(at('2026-11-20T16:00:00Z'));
  });
});

describe('UTC instant -> local time', () => {
  it('at fixed offsets and in named zones', () => {
    expect(utcToZonedTime(at('2024-05-01T23:30:05Z'), '+07:00')).toBe('2024-05-02T06:30:05');
    expect(utcToZonedTime(at('2024-05-01T23:30:05Z'), '-03:30')).toBe('2024-05-01T20:00:05');
    expect(utcToZonedTime(at('2024-05-01T23:30:05Z'), '+05:30')).toBe('2024-05-02T05:00:05');
    expect(utcToZonedTime(at('2024-05-01T23:30:05Z'), 'Asia/Shanghai')).toBe('2024-05-02T07:30:05');
    expect(utcToZonedTime(at('2024-05-01T23:30:05Z'), 'America/Sao_Paulo')).toBe('2024-05-01T20:30:05');
  });

  it('on both sides of a daylight-saving change', () => {
    expect(utcToZonedTime(at('2026-03-08T06:59:59Z'), 'America/New_York')).toBe('2026-03-08T01:59:59');
    expect(utcToZonedTime(at('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('2026-03-08T03:00:00');
    expect(utcToZonedTime(at('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00');
    expect(utcToZonedTime(at('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00');
  });

  it('names the local date of an instant', () => {
    expect(localDate(at('2026-11-21T17:30:00Z'), 'Asia/Shanghai')).toBe('2026-11-22');
    expect(localDate(at('2026-11-21T17:30:00Z'), '-05:00')).toBe('2026-11-21');
  });

  it('round-trips every instant that is not in a repeated hour', () => {
    const zones = [
      '+05:30',
      '-03:00',
      'Asia/Shanghai',
      'America/New_York',
      'Europe/London',
      'Australia/Sydney',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 }),
        fc.constantFrom(...zones),
        (seconds, zone) => {
          const instant = new Date(seconds * 1000);
          const back = zonedTimeToUtc(utcToZonedTime(instant, zone), zone);
          // In a repeated hour the wall clock names two instants; the first is the answer.
          const isRepeated =
            offsetMinutesAt(zone, new Date(instant.getTime() - 3600_000)) > offsetMinutesAt(zone, instant);
          if (isRepeated) expect(back.getTime()).toBeLessThanOrEqual(instant.getTime());
          else expect(back).toEqual(instant);
        },
      ),
    );
  });
});

describe('local days', () => {
  it('finds the UTC instants of a local day', () => {
    expect(dayRange('2026-11-21', '+08:00')).toEqual({
      start: at('2026-11-20T16:00:00Z'),
      end: at('2026-11-21T16:00:00Z'),
    });
    expect(dayRange('2026-11-21', 'America/Sao_Paulo').start).toEqual(at('2026-11-21T03:00:00Z'));
  });

  it('a spring-forward day lasts 23 hours, a fall-back day 25', () => {
    const spring = dayRange('2026-03-08', 'America/New_York');
    expect((spring.end.getTime() - spring.start.getTime()) / 3600_000).toBe(23);
    const fall = dayRange('2026-11-01', 'America/New_York');
    expect((fall.end.getTime() - fall.start.getTime()) / 3600_000).toBe(25);
  });

  it('the last day of a month and of a year ends on the next one', () => {
    expect(dayRange('2026-02-28', '-03:00').end).toEqual(at('2026-03-01T03:00:00Z'));
    expect(dayRange('2026-12-31', '+05:30').end).toEqual(at('2026-12-31T18:30:00Z'));
  });
});
