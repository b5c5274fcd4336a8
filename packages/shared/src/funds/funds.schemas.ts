import { z } from 'zod';
import { CurrencySchema } from '../money.ts';
import { CursorListMetaSchema, CursorListQuerySchema, emptyToUndefined } from '../pagination.ts';

// The fund flow types: the eight of the spec (section 4) and the two freeze types of DESIGN section 3.
// These codes are stored in fund_flows.type and sent to the console, which labels them per language.
export const FUND_FLOW_TYPES = [
  'collection_settlement',
  'payout_deduction',
  'payout_refund',
  'recharge',
  'withdrawal',
  'withdrawal_rejected',
  'transfer_in',
  'transfer_out',
  'funds_frozen',
  'funds_unfrozen',
  // Refunds of paid collections (DESIGN 14): the hold at creation, and its return when the refund fails.
  'refund',
  'refund_reversal',
] as const;
export type FundFlowType = (typeof FUND_FLOW_TYPES)[number];
export const FundFlowTypeSchema = z.enum(FUND_FLOW_TYPES, {
  error: `The type must be one of: ${FUND_FLOW_TYPES.join(', ')}.`,
});

/** Types that move money out of available into a hold (payout in flight, withdrawal under review, freeze). */
export const HOLD_TYPES = ['payout_deduction', 'withdrawal', 'funds_frozen', 'refund'] as const;
export type HoldType = (typeof HOLD_TYPES)[number];

/** Releasing a hold gives the money back with the entry type that matches what held it. */
export const RELEASE_TYPE_OF_HOLD: Record<HoldType, FundFlowType> = {
  payout_deduction: 'payout_refund',
  withdrawal: 'withdrawal_rejected',
  funds_frozen: 'funds_unfrozen',
  refund: 'refund_reversal',
};

/** A captured hold leaves the merchant for good; its journal entry has no fund flow (DESIGN section 3). */
export const CAPTURE_TYPE_OF_HOLD = {
  payout_deduction: 'payout_paid',
  withdrawal: 'withdrawal_paid',
  refund: 'refund_paid',
} as const satisfies Partial<Record<HoldType, string>>;

/** The type of a journal entry: the fund flow type it shows as, or the capture it records. */
export const JOURNAL_ENTRY_TYPES = [
  ...FUND_FLOW_TYPES,
  'payout_paid',
  'withdrawal_paid',
  'refund_paid',
] as const;
export type JournalEntryType = (typeof JOURNAL_ENTRY_TYPES)[number];

/**
 * The double-entry ledger's accounts (DESIGN section 3): two per merchant, one clearing account per channel
 * and currency, and the platform's own per currency. Balances are signed: credit +, debit -.
 */
export const LEDGER_ACCOUNT_KINDS = [
  'merchant_available',
  'merchant_locked',
  'channel_clearing',
  'fee_revenue',
  'usdt_deposits',
  'withdrawals_payable',
  'operator_adjustments',
] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];
export type PlatformAccountKind = Exclude<LedgerAccountKind, 'merchant_available' | 'merchant_locked'>;

/** Types posted directly (no hold), with the sign their amount must have. */
export const POSTED_TYPE_SIGN = {
  collection_settlement: 1,
  recharge: 1,
  transfer_in: 1,
  transfer_out: -1,
  // A payout that succeeded and came back from the bank later (refund received).
  payout_refund: 1,
} as const satisfies Partial<Record<FundFlowType, 1 | -1>>;
export type PostedType = keyof typeof POSTED_TYPE_SIGN;

// ---- GET /api/merchant/balance

export const BalanceSchema = z.object({
  /** available + locked */
  total: z.string(),
  available: z.string(),
  locked: z.string(),
  currency: CurrencySchema,
});
export type Balance = z.infer<typeof BalanceSchema>;
export const BalanceResponseSchema = z.object({ data: BalanceSchema });

// ---- GET /api/merchant/fund-flows

const DATE = /^(\d{4}-\d{2}-\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

const isRealDate = (day: string) => {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
};

// Dates a filter can mean. Beyond them a time zone's offset can carry an instant to year 0 or 10000,
// which the database does not take.
export const EARLIEST_DATE = '1970-01-01';
export const LATEST_DATE = '2999-12-31';

/** A local date ("2026-03-01") or date and time ("2026-03-01 08:30:00"), read in the user's time zone. */
export const LocalTimeSchema = z
  .string()
  .trim()
  .refine((value) => {
    const match = DATE.exec(value) ?? DATE_TIME.exec(value);
    return match !== null && isRealDate(match[1]);
  }, 'Use a date (2026-03-01) or a date and time (2026-03-01 08:30:00).')
  .refine((value) => {
    const day = value.slice(0, 10);
    return !isRealDate(day) || (day >= EARLIEST_DATE && day <= LATEST_DATE);
  }, `Use a date between ${EARLIEST_DATE} and ${LATEST_DATE}.`);

/** "2026-03-01 08:30" -> "2026-03-01T08:30:00"; a date alone is the first or last second of that day. */
export function normalizeLocalTime(value: string, edge: 'start' | 'end'): string {
  const text = value.trim().replace(' ', 'T');
  if (text.length === 10) return `${text}T${edge === 'start' ? '00:00:00' : '23:59:59'}`;
  return text.length === 16 ? `${text}:00` : text;
}

/**
 * A console list's query (cursor paging) with its own filters and a creation time range: start_time and
 * end_time inclusive in the user's time zone (a date alone is that day's first second, or for the end, the
 * whole day), the start before the end.
 */
export function timeRangeListQuery<Filters extends z.ZodRawShape>(filters: Filters) {
  return CursorListQuerySchema.extend({
    ...filters,
    start_time: z.preprocess(emptyToUndefined, LocalTimeSchema.optional()),
    end_time: z.preprocess(emptyToUndefined, LocalTimeSchema.optional()),
  }).refine((q) => startsBeforeEnd(q as unknown as TimeRange), {
    message: 'The start time must be before the end time.',
    path: ['end_time'],
  });
}

type TimeRange = { start_time?: string; end_time?: string };

const startsBeforeEnd = ({ start_time: start, end_time: end }: TimeRange) =>
  !start || !end || normalizeLocalTime(start, 'start') <= normalizeLocalTime(end, 'end');

export const FundFlowListQuerySchema = timeRangeListQuery({
  type: z.preprocess(emptyToUndefined, FundFlowTypeSchema.optional()),
  /** The reference number of what caused the entry (order, payout, top-up or operator action). */
  ref_no: z.preprocess(emptyToUndefined, z.string().trim().max(64).optional()),
});
export type FundFlowListQuery = z.infer<typeof FundFlowListQuerySchema>;

export const FundFlowSchema = z.object({
  id: z.number(),
  type: FundFlowTypeSchema,
  /** Signed change to available: "+100.00" reads "100.00", money out is "-100.00". */
  amount: z.string(),
  /** Available balance right after this entry. */
  available_after: z.string(),
  currency: CurrencySchema,
  ref_type: z.string(),
  ref_no: z.string().nullable(),
  note: z.string().nullable(),
  /** ISO 8601, UTC; the console shows it in the user's time zone. */
  created_at: z.string(),
});
export type FundFlow = z.infer<typeof FundFlowSchema>;

export const FundFlowSumsSchema = z.object({
  /** Money in (sum of positive amounts) for the whole filter, decimal string. */
  money_in: z.string(),
  /** Money out (sum of negative amounts, as a positive number) for the whole filter. */
  money_out: z.string(),
});
export type FundFlowSums = z.infer<typeof FundFlowSumsSchema>;

export const FundFlowListMetaSchema = CursorListMetaSchema.extend({ sums: FundFlowSumsSchema });
export const FundFlowListResponseSchema = z.object({
  data: z.array(FundFlowSchema),
  meta: FundFlowListMetaSchema,
});
export type FundFlowListResponse = z.infer<typeof FundFlowListResponseSchema>;

export const FundFlowResponseSchema = z.object({ data: FundFlowSchema });
