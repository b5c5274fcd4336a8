import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountSchema, fromMinor, groupDecimal, toMinor } from './money.ts';

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

  it('at zero', () => {
    expect(toMinor('0', 'CNY')).toBe(0n);
    expect(toMinor('0.00', 'CNY')).toBe(0n);
    expect(toMinor('-0', 'CNY')).toBe(0n);
    expect(fromMinor(0n, 'CNY')).toBe('0.00');
    expect(fromMinor(0n, 'VND')).toBe('0');
    expect(fromMinor(0n, 'USDT')).toBe('0.000000');
    expect(groupDecimal('0.00')).toBe('0.00');
  });

  it('VND has no decimals (exponent 0)', () => {
    expect(toMinor('1234567', 'VND')).toBe(1234567n);
    expect(fromMinor(1234567n, 'VND')).toBe('1234567');
    expect(fromMinor(-5n, 'VND')).toBe('-5');
    expect(() => toMinor('1.0', 'VND')).toThrow(/at most 0 decimals/);
  });

  it('USDT has six decimals (exponent 6)', () => {
    expect(toMinor('0.000001', 'USDT')).toBe(1n);
    expect(toMinor('12.5', 'USDT')).toBe(12500000n);
    expect(fromMinor(12500000n, 'USDT')).toBe('12.500000');
    expect(() => toMinor('0.0000001', 'USDT')).toThrow(/at most 6 decimals/);
  });

  it('negative amounts keep their sign both ways', () => {
    expect(toMinor('-0.01', 'CNY')).toBe(-1n);
    expect(fromMinor(-1n, 'CNY')).toBe('-0.01');
    expect(fromMinor(-123456789n, 'USDT')).toBe('-123.456789');
    expect(groupDecimal('-1234567.891234')).toBe('-1,234,567.891234');
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', '-', '1.', '.5', '1,000', '+1', '1 000', 'abc']) {
      expect(() => toMinor(text, 'CNY'), text).toThrow(/Not an amount/);
    }
  });

  it('the largest amount a form may send: 15 digits and 6 decimals, exactly', () => {
    const largest = '999999999999999.999999';
    expect(AmountSchema.safeParse(largest).success).toBe(true);
    expect(toMinor(largest, 'USDT')).toBe(999999999999999999999n);
    expect(fromMinor(999999999999999999999n, 'USDT')).toBe(largest);
    expect(toMinor('999999999999999.99', 'CNY')).toBe(99999999999999999n);
    expect(groupDecimal('999999999999999.99')).toBe('999,999,999,999,999.99');
  });

  it('the amount schema refuses more digits, more decimals, signs and other text', () => {
    for (const text of ['1234567890123456', '1.1234567', '-1', '+1', '1e3', '', ' ', '1,5']) {
      expect(AmountSchema.safeParse(text).success, text).toBe(false);
    }
    expect(AmountSchema.parse(' 0.5 ')).toBe('0.5');
  });
});
