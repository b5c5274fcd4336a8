import { describe, expect, it } from 'vitest';
import { convertDown, RateSchema, toMinor } from './money.ts';

describe('convertDown (top-up credit = received x rate, rounded down)', () => {
  it('rounds down to the target currency minor unit', () => {
    // 100.123456 USDT x 7.1234 = 713.2194... CNY -> 713.21
    expect(convertDown(toMinor('100.123456', 'USDT'), 'USDT', '7.1234', 'CNY')).toBe(71321n);
    // 0.999999 USDT x 1 = 0.999999 USD -> 0.99
    expect(convertDown(toMinor('0.999999', 'USDT'), 'USDT', '1', 'USD')).toBe(99n);
    // VND has no decimals: 10.5 USDT x 25000.5 = 262505.25 -> 262505
    expect(convertDown(toMinor('10.5', 'USDT'), 'USDT', '25000.5', 'VND')).toBe(262505n);
  });

  it('is exact for large amounts (no float)', () => {
    expect(convertDown(toMinor('999999999.999999', 'USDT'), 'USDT', '7.12345678', 'CNY')).toBe(712345677999n);
  });

  it('refuses a zero or malformed rate', () => {
    expect(RateSchema.safeParse('0').success).toBe(false);
    expect(RateSchema.safeParse('0.00').success).toBe(false);
    expect(RateSchema.safeParse('-1').success).toBe(false);
    expect(RateSchema.safeParse('7.123456789').success).toBe(false);
    expect(RateSchema.safeParse('7.12345678').success).toBe(true);
  });
});
