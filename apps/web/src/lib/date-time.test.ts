import { describe, expect, it } from 'vitest';
import { formatDateTime } from './date-time.ts';

describe('formatDateTime', () => {
  const instant = '2024-05-01T23:30:05Z';

  it('shows the instant in an IANA zone', () => {
    expect(formatDateTime(instant, 'Asia/Shanghai')).toBe('2024-05-02 07:30:05');
    expect(formatDateTime(instant, 'America/Sao_Paulo')).toBe('2024-05-01 20:30:05');
  });

  it('shows the instant at a saved UTC offset', () => {
    expect(formatDateTime(instant, '+07:00')).toBe('2024-05-02 06:30:05');
    expect(formatDateTime(instant, '-03:30')).toBe('2024-05-01 20:00:05');
  });

  it('can leave out the seconds or the time', () => {
    expect(formatDateTime(instant, 'UTC', { seconds: false })).toBe('2024-05-01 23:30');
    expect(formatDateTime(instant, 'Asia/Ho_Chi_Minh', { dateOnly: true })).toBe('2024-05-02');
  });

  it('gives back what it cannot read', () => {
    expect(formatDateTime('not a date', 'UTC')).toBe('not a date');
  });
});

describe('formatDateTime in a zone it does not know', () => {
  it("falls back to the browser's zone", () => {
    const instant = '2024-05-01T23:30:05Z';
    expect(formatDateTime(instant, 'Mars/Olympus')).toBe(formatDateTime(instant, null));
  });
});
