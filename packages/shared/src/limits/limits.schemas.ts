import { z } from 'zod';

// Limits and risk rules (DESIGN 14): per merchant, kind and mode, set by operators. A refusal is 422
// limit_exceeded with `limit` naming which one, or 422 blocked with `list` naming the block list.

/** The kinds of order a limit applies to. Withdrawals are USDT: their limits are USDT amounts. */
export const LIMIT_KINDS = ['collection', 'payout', 'withdrawal'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** The limits, as `limit` names them in a refusal. */
export const LIMIT_NAMES = [
  'per_order_min',
  'per_order_max',
  'daily_amount',
  'daily_count',
  'payee_daily_count',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
/** Limits that are amounts (the others are counts). */
export const AMOUNT_LIMITS: readonly LimitName[] = ['per_order_min', 'per_order_max', 'daily_amount'];
/** payee_daily_count is of payouts only (payouts per payee account per day). */
export const LIMITS_OF_KIND: Record<LimitKind, readonly LimitName[]> = {
  collection: ['per_order_min', 'per_order_max', 'daily_amount', 'daily_count'],
  payout: LIMIT_NAMES,
  withdrawal: ['per_order_min', 'per_order_max', 'daily_amount', 'daily_count'],
};

/** The block lists, as `list` names them in a refusal, and the kind of order each one stops. */
export const BLOCK_LISTS = ['payee_account', 'wallet_address', 'payer_ip'] as const;
export type BlockList = (typeof BLOCK_LISTS)[number];
export const KIND_OF_BLOCK_LIST: Record<BlockList, LimitKind> = {
  payee_account: 'payout',
  wallet_address: 'withdrawal',
  payer_ip: 'collection',
};

/** A payee account number on a block list: letters and digits, as a payout's account_no without spaces. */
export const PAYEE_ACCOUNT_PATTERN = /^[A-Za-z0-9]{4,34}$/;

/** GET /api/merchant/limits?kind=: the limits that apply to the merchant's orders of a kind (this mode). */
export const MerchantLimitsQuerySchema = z.object({
  kind: z.enum(['collection', 'payout', 'withdrawal'], {
    error: 'The kind must be one of: collection, payout, withdrawal.',
  }),
});
export type MerchantLimitsQuery = z.infer<typeof MerchantLimitsQuerySchema>;

export const MerchantLimitsSchema = z.object({
  kind: z.enum(LIMIT_KINDS),
  /** The currency the amounts are in (USDT for withdrawals). */
  currency: z.string(),
  /** The merchant's local day the daily figures are of (its time zone). */
  day: z.string(),
  per_order_min: z.string().nullable(),
  per_order_max: z.string().nullable(),
  daily_amount: z.string().nullable(),
  daily_count: z.number().int().nullable(),
  payee_daily_count: z.number().int().nullable(),
  used_amount: z.string(),
  used_count: z.number().int(),
  /** What is left today: null where there is no such limit. */
  remaining_amount: z.string().nullable(),
  remaining_count: z.number().int().nullable(),
});
export type MerchantLimits = z.infer<typeof MerchantLimitsSchema>;
export const MerchantLimitsResponseSchema = z.object({ data: MerchantLimitsSchema });
