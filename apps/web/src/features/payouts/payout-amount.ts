import { feeOf } from '@paydesk/shared/collections/collections.schemas.ts';
import { AmountSchema, type Currency, exponentOf, fromMinor, toMinor } from '@paydesk/shared/money.ts';
import type { PayoutChannel } from '@paydesk/shared/payouts/payouts.schemas.ts';

// The amount of a payout as the form checks and prices it: integer minor units throughout, decimal
// strings only at the edges (the typed amount in, the shown fee and total out). Never a float.

/** "1.5" (percent, exact) -> 15000 parts per million; undefined for a rate finer than a ppm. */
export function percentToPpm(percent: string): number | undefined {
  const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(percent.trim());
  if (!match) return undefined;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

/** The typed amount in minor units, or undefined when it is not an amount of this currency. */
export function amountMinorOf(value: string | undefined, currency: Currency): bigint | undefined {
  const text = value?.trim() ?? '';
  if (!AmountSchema.safeParse(text).success) return undefined;
  const [, fraction = ''] = text.split('.');
  if (fraction.length > exponentOf(currency)) return undefined;
  return toMinor(text, currency);
}

export type AmountIssue = 'required' | 'format' | 'zero' | 'range';

/** What is wrong with the typed amount for this channel (its currency, minimum and maximum), if anything. */
export function amountIssueOf(value: string | undefined, channel: PayoutChannel): AmountIssue | undefined {
  if (!value?.trim()) return 'required';
  const minor = amountMinorOf(value, channel.currency);
  if (minor === undefined) return 'format';
  if (minor === 0n) return 'zero';
  const min = toMinor(channel.min_amount, channel.currency);
  const max = toMinor(channel.max_amount, channel.currency);
  return minor < min || minor > max ? 'range' : undefined;
}

export type PayoutCost = { fee: string; total: string; totalMinor: bigint };

/**
 * The fee the server will charge (the channel's rate and fixed fee, rounded half up, DESIGN section 3) and
 * the total taken from the available balance; undefined until the amount is one.
 */
export function payoutCostOf(value: string | undefined, channel: PayoutChannel): PayoutCost | undefined {
  const { currency } = channel;
  const amount = amountMinorOf(value, currency);
  const ratePpm = percentToPpm(channel.fee_rate);
  if (amount === undefined || ratePpm === undefined) return undefined;
  const fee = feeOf(amount, ratePpm, toMinor(channel.fixed_fee, currency));
  const total = amount + fee;
  return { fee: fromMinor(fee, currency), total: fromMinor(total, currency), totalMinor: total };
}
