import { describe, expect, it } from 'vitest';
import { usdtToLocalMinor } from './withdrawal-amount.ts';

describe('usdtToLocalMinor', () => {
  it('converts exactly when the result falls on a minor unit', () => {
    expect(usdtToLocalMinor(100_000_000n, '7.1', 'CNY')).toBe(71_000n); // 100 USDT = 710.00 CNY
    expect(usdtToLocalMinor(1_000_000n, '25400', 'VND')).toBe(25_400n);
  });
  it('rounds up to the next minor unit otherwise', () => {
    expect(usdtToLocalMinor(1n, '7.1', 'CNY')).toBe(1n); // 0.000001 USDT -> 0.01 CNY
    expect(usdtToLocalMinor(1_234_567n, '7.1', 'CNY')).toBe(877n); // 8.7654257 -> 8.77
    expect(usdtToLocalMinor(1_500_000n, '25400.5', 'VND')).toBe(38_101n); // 38100.75 -> 38101
  });
  it('refuses a rate that is not a positive decimal', () => {
    expect(() => usdtToLocalMinor(1n, '0', 'CNY')).toThrow();
    expect(() => usdtToLocalMinor(1n, '-1', 'CNY')).toThrow();
  });
});
