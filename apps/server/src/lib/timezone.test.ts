import { describe, expect, it } from 'vitest';
import { resolveTimeZone } from './timezone.ts';

// The arithmetic itself (offsets, day ranges, daylight saving) is tested in packages/shared/src/time-zone.test.ts.
describe('the time zone of a request', () => {
  it('is the saved one, else the header, else UTC; a bad header is refused', () => {
    expect(resolveTimeZone('+07:00', 'Asia/Shanghai')).toBe('+07:00');
    expect(resolveTimeZone(null, 'Asia/Shanghai')).toBe('Asia/Shanghai');
    expect(resolveTimeZone(null, undefined)).toBe('UTC');
    expect(() => resolveTimeZone(null, 'Mars/Olympus')).toThrow(/X-Timezone/);
  });
});
