import { describe, expect, it } from 'vitest';
import { FundFlowListQuerySchema, LocalTimeSchema, normalizeLocalTime } from './funds.schemas.ts';

describe('LocalTimeSchema', () => {
  it('takes a date, or a date and time with or without seconds, with a space or a T', () => {
    for (const value of ['2026-03-01', '2026-03-01 08:30', '2026-03-01 08:30:59', '2026-03-01T23:59:59']) {
      expect(LocalTimeSchema.safeParse(value).success, value).toBe(true);
    }
    expect(LocalTimeSchema.parse('  2026-03-01  ')).toBe('2026-03-01');
  });

  it('refuses dates that do not exist and times out of range', () => {
    for (const value of [
      '2026-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-03-01 24:00',
      '2026-03-01 08:60',
      '2026-03-01 08:30:60',
      '2026-3-1',
      '01/03/2026',
      '',
    ]) {
      expect(LocalTimeSchema.safeParse(value).success, value).toBe(false);
    }
    expect(LocalTimeSchema.safeParse('2024-02-29').success).toBe(true);
  });

  it('keeps to the dates the database can hold', () => {
    expect(LocalTimeSchema.safeParse('1970-01-01').success).toBe(true);
    expect(LocalTimeSchema.safeParse('2999-12-31 23:59:59').success).toBe(true);
    const before = LocalTimeSchema.safeParse('1969-12-31');
    expect(before.error?.issues[0].message).toMatch(/between 1970-01-01 and 2999-12-31/);
    expect(LocalTimeSchema.safeParse('3000-01-01').success).toBe(false);
  });
});

describe('normalizeLocalTime', () => {
  it('a date alone is the first or the last second of that day', () => {
    expect(normalizeLocalTime('2026-03-01', 'start')).toBe('2026-03-01T00:00:00');
    expect(normalizeLocalTime('2026-03-01', 'end')).toBe('2026-03-01T23:59:59');
  });

  it('adds the seconds a time leaves out and keeps those it has', () => {
    expect(normalizeLocalTime(' 2026-03-01 08:30 ', 'start')).toBe('2026-03-01T08:30:00');
    expect(normalizeLocalTime('2026-03-01T08:30:15', 'end')).toBe('2026-03-01T08:30:15');
  });
});

describe('FundFlowListQuerySchema', () => {
  it('refuses a start after the end, on end_time', () => {
    const result = FundFlowListQuerySchema.safeParse({ start_time: '2026-03-02', end_time: '2026-03-01' });
    expect(result.error?.issues[0]).toMatchObject({ path: ['end_time'] });
    // The same day as start and end is the whole of that day.
    expect(
      FundFlowListQuerySchema.safeParse({ start_time: '2026-03-01', end_time: '2026-03-01' }).success,
    ).toBe(true);
  });

  it('reads empty filters as absent', () => {
    expect(FundFlowListQuerySchema.parse({ type: '', ref_no: '', cursor: '' })).toEqual({
      page: 1,
      per_page: 20,
    });
  });
});
