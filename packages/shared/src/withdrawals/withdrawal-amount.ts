import { type Currency, exponentOf } from '../money.ts';

const USDT_EXPONENT = 6;

/** "7.1" -> { units: 71n, exponent: 1 }; refuses anything but a plain positive decimal. */
function parseRate(rate: string): { units: bigint; exponent: number } {
  const match = /^(\d{1,12})(?:\.(\d{1,12}))?$/.exec(rate.trim());
  if (!match) throw new Error(`Not a rate: ${rate}`);
  const fraction = match[2] ?? '';
  const units = BigInt(match[1] + fraction);
  if (units === 0n) throw new Error('A rate must be greater than 0.');
  return { units, exponent: fraction.length };
}

/**
 * USDT minor units (6 decimals) in the merchant's currency at `rate` (local per USDT), rounded UP to the
 * currency's minor unit: what a withdrawal takes from the balance never falls short of what leaves.
 */
export function usdtToLocalMinor(usdtMinor: bigint, rate: string, currency: Currency): bigint {
  const { units, exponent } = parseRate(rate);
  const numerator = usdtMinor * units * 10n ** BigInt(exponentOf(currency));
  const denominator = 10n ** BigInt(USDT_EXPONENT + exponent);
  return (numerator + denominator - 1n) / denominator;
}
