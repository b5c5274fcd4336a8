import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMinor, groupDecimal, toMinor } from './money.ts';

describe('money', () => {
  it('converts decimal strings to minor units per currency', () => {
    expect(toMinor('1234.5', 'CNY')).toBe(123450n);
    expect(toMinor('0.01', 'CNY')).toBe(1n);
    expect(toMinor('15000', 'VND')).toBe(15000n);
    expect(toMinor('1.000001', 'USDT')).toBe(1000001n);
    expect(toMinor('-2.5', 'CNY')).toBe(-250n);
  });

  it('refuses more decimals than the currency has', () => {
    expect(() => toMinor('1.001', 'CNY')).toThrow(/at most 2 decimals/);
    expect(() => toMinor('1.5', 'VND')).toThrow(/at most 0 decimals/);
    expect(() => toMinor('1e3', 'CNY')).toThrow(/Not an amount/);
  });

  it('formats minor units back to decimal strings', () => {
    expect(fromMinor(123450n, 'CNY')).toBe('1234.50');
    expect(fromMinor(5n, 'CNY')).toBe('0.05');
    expect(fromMinor(-5n, 'CNY')).toBe('-0.05');
    expect(fromMinor(15000n, 'VND')).toBe('15000');
    expect(fromMinor(1n, 'USDT')).toBe('0.000001');
  });

  it('round-trips any amount exactly, far beyond float precision', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (minor) => {
        expect(toMinor(fromMinor(minor, 'CNY'), 'CNY')).toBe(minor);
        expect(toMinor(fromMinor(minor, 'USDT'), 'USDT')).toBe(minor);
      }),
    );
  });

  it('groups thousands for display', () => {
    expect(groupDecimal('1234567.50')).toBe('1,234,567.50');
    expect(groupDecimal('-1000')).toBe('-1,000');
    expect(groupDecimal('999.99')).toBe('999.99');
  });
});
