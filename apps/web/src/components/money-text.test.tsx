import { render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { currencyUnit, formatMoney, MoneyText } from './money-text.tsx';

describe('formatMoney', () => {
  it('groups thousands and pads to the currency decimals', () => {
    expect(formatMoney('1234567.5', 'CNY')).toBe('1,234,567.50');
    expect(formatMoney('1234567', 'VND')).toBe('1,234,567');
    expect(formatMoney('12.5', 'USDT')).toBe('12.500000');
  });

  it('keeps the sign, and adds "+" only when asked', () => {
    expect(formatMoney('-1234.5', 'CNY')).toBe('-1,234.50');
    expect(formatMoney('1234.5', 'CNY', { signed: true })).toBe('+1,234.50');
    expect(formatMoney('0', 'CNY', { signed: true })).toBe('0.00');
  });

  it('is exact beyond float precision', () => {
    expect(formatMoney('90071992547409931.23', 'CNY')).toBe('90,071,992,547,409,931.23');
  });

  it('shows what it cannot read as it is', () => {
    expect(formatMoney('abc', 'CNY')).toBe('abc');
  });
});

describe('MoneyText', () => {
  it('puts the symbol after the sign', () => {
    render(<MoneyText value="-5" currency="CNY" unit="symbol" />);
    expect(screen.getByText('-¥5.00')).toBeInTheDocument();
  });
});

describe('the unit of an amount in CNY (spec section 9: "Amount unit shown: Yuan")', () => {
  afterAll(() => changeLanguage('en'));

  it.each([
    ['en', '1,234.50 Yuan'],
    ['zh-cn', '1,234.50 元'],
    ['vi', '1,234.50 Nhân dân tệ'],
  ] as const)('%s: %s', async (language, shown) => {
    await changeLanguage(language);
    render(<MoneyText value="1234.5" currency="CNY" unit="code" />);
    expect(screen.getByText(shown)).toBeInTheDocument();
  });

  it('other currencies keep their code', async () => {
    await changeLanguage('zh-cn');
    render(<MoneyText value="1234.5" currency="INR" unit="code" />);
    expect(screen.getByText('1,234.50 INR')).toBeInTheDocument();
  });

  it.each([
    ['en', 'Yuan'],
    ['zh-cn', '元'],
    ['vi', 'Nhân dân tệ'],
  ] as const)('currencyUnit in %s', async (language, unit) => {
    await changeLanguage(language);
    expect(currencyUnit('CNY')).toBe(unit);
    expect(currencyUnit('USDT')).toBe('USDT');
  });
});
