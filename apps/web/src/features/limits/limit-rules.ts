import { type Currency, toMinor } from '@paydesk/shared/money.ts';
import type { LimitName, MerchantLimits } from '@paydesk/shared/limits/limits.schemas.ts';

// The limits as the forms check them before submit (the server checks them again in the order's own
// transaction: DESIGN 14). Integer minor units throughout.

export type LimitIssue = { limit: LimitName; value: string };

/** Whether any limit applies (the forms show the limits' line only then). */
export const hasLimits = (limits: MerchantLimits | undefined): limits is MerchantLimits =>
  limits !== undefined &&
  [
    limits.per_order_min,
    limits.per_order_max,
    limits.daily_amount,
    limits.daily_count,
    limits.payee_daily_count,
  ].some((value) => value !== null);

/** The limit a typed amount (in minor units of the limits' currency) would pass, if any. */
export function limitIssueOf(
  amountMinor: bigint,
  limits: MerchantLimits | undefined,
): LimitIssue | undefined {
  if (!limits) return undefined;
  const currency = limits.currency as Currency;
  const minor = (value: string) => toMinor(value, currency);
  if (limits.per_order_min !== null && amountMinor < minor(limits.per_order_min))
    return { limit: 'per_order_min', value: limits.per_order_min };
  if (limits.per_order_max !== null && amountMinor > minor(limits.per_order_max))
    return { limit: 'per_order_max', value: limits.per_order_max };
  if (limits.remaining_count !== null && limits.remaining_count <= 0)
    return { limit: 'daily_count', value: String(limits.daily_count) };
  if (limits.remaining_amount !== null && amountMinor > minor(limits.remaining_amount))
    return { limit: 'daily_amount', value: limits.remaining_amount };
  return undefined;
}
