import { AmountSchema, type Currency, exponentOf, fromMinor, toMinor } from '@paydesk/shared/money.ts';

// A refund's amount as the form checks it: integer minor units throughout, decimal strings only at the
// edges. Never a float.

/** What an order may still give back: its amount less what its refunds took (processing or succeeded). */
export function refundableOf(order: { amount: string; refunded: string; currency: Currency }): string {
  const left = toMinor(order.amount, order.currency) - toMinor(order.refunded, order.currency);
  return fromMinor(left > 0n ? left : 0n, order.currency);
}

export type RefundAmountIssue = 'required' | 'format' | 'zero' | 'exceeds';

/**
 * What is wrong with the typed amount (the shared schema's format, the currency's decimals, more than
 * zero, at most what is refundable), if anything. The server has the last word (422 refund_exceeds_amount).
 */
export function refundAmountIssueOf(
  value: string | undefined,
  refundable: string,
  currency: Currency,
): RefundAmountIssue | undefined {
  const text = value?.trim() ?? '';
  if (!text) return 'required';
  if (!AmountSchema.safeParse(text).success) return 'format';
  if ((text.split('.')[1] ?? '').length > exponentOf(currency)) return 'format';
  const minor = toMinor(text, currency);
  if (minor === 0n) return 'zero';
  return minor > toMinor(refundable, currency) ? 'exceeds' : undefined;
}
