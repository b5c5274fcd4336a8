import { z } from 'zod';

// Money is integer minor units (bigint) everywhere; this module is the one place that converts
// between minor units and the decimal strings used in JSON and forms.

export const CURRENCIES = {
  CNY: { exponent: 2, symbol: '¥' },
  INR: { exponent: 2, symbol: '₹' },
  BRL: { exponent: 2, symbol: 'R$' },
  VND: { exponent: 0, symbol: '₫' },
  USD: { exponent: 2, symbol: '$' },
  USDT: { exponent: 6, symbol: '' },
} as const;

export type Currency = keyof typeof CURRENCIES;
export const CurrencySchema = z.enum(Object.keys(CURRENCIES) as [Currency, ...Currency[]]);

export const exponentOf = (currency: Currency): number => CURRENCIES[currency].exponent;

/** A non-negative decimal amount as typed by a person or sent in JSON: "1234.5", "0.01". */
export const AmountSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,6})?$/, 'The amount must be a number with at most 6 decimals.');

export class AmountError extends Error {}

/** "1234.5" in CNY -> 123450n. Refuses more decimals than the currency has. */
export function toMinor(amount: string, currency: Currency): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new AmountError(`Not an amount: ${amount}`);
  const [, sign, whole, fraction = ''] = match;
  const exponent = exponentOf(currency);
  if (fraction.length > exponent) {
    throw new AmountError(`${currency} amounts have at most ${exponent} decimals.`);
  }
  const minor = BigInt(whole + fraction.padEnd(exponent, '0'));
  return sign ? -minor : minor;
}

/** 123450n in CNY -> "1234.50" (no grouping; the JSON form of an amount). */
export function fromMinor(minor: bigint, currency: Currency): string {
  const exponent = exponentOf(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return (negative ? '-' : '') + whole + (exponent > 0 ? `.${fraction}` : '');
}

/** "-1234.50" -> "-1,234.50": thousands separators for display, exact (never via a float). */
export function groupDecimal(decimal: string, separator = ','): string {
  const negative = decimal.startsWith('-');
  const [whole, fraction] = (negative ? decimal.slice(1) : decimal).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return (negative ? '-' : '') + grouped + (fraction !== undefined ? `.${fraction}` : '');
}

// ---- Exchange rates (top-ups: USDT received x rate = the merchant currency credited)

/** A positive decimal exchange rate such as "7.1234" (at most 8 decimals), kept as the string it was given. */
export const RateSchema = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,8})?$/, 'The rate must be a number with at most 8 decimals, such as 7.1234.')
  .refine((rate) => /[1-9]/.test(rate), 'The rate must be greater than zero.');

/**
 * `amountMinor` of `from` converted at `rate` into `to`'s minor units, rounded DOWN: a conversion never
 * credits a fraction of a minor unit that was not received. Exact (bigint), never via a float.
 */
export function convertDown(amountMinor: bigint, from: Currency, rate: string, to: Currency): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) throw new AmountError(`Not a rate: ${rate}`);
  const [, whole, fraction = ''] = match;
  const numerator = amountMinor * BigInt(whole + fraction) * 10n ** BigInt(exponentOf(to));
  const denominator = 10n ** BigInt(exponentOf(from) + fraction.length);
  const quotient = numerator / denominator;
  // bigint division truncates toward zero: step down once more for a negative remainder.
  return numerator < 0n && numerator % denominator !== 0n ? quotient - 1n : quotient;
}
