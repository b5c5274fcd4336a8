import { z } from 'zod';
import { CurrencySchema } from '../money.ts';
import { emptyToUndefined, ListMetaSchema, ListQuerySchema } from '../pagination.ts';

// ---- GET /api/merchant/daily-reports: one row per day in the merchant's time zone (DESIGN section 5).

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (day: string) => {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
};

/** The longest range one request may ask for, in days. */
export const DAILY_REPORT_MAX_DAYS = 366;
/** Without dates: the last 30 days up to today. */
export const DAILY_REPORT_DEFAULT_DAYS = 30;

export const ReportDateSchema = z
  .string()
  .trim()
  .refine((value) => DATE.test(value) && isRealDate(value), 'Use a date such as 2026-03-01.')
  .refine((value) => !DATE.test(value) || (value >= '2000-01-01' && value <= '2999-12-31'), {
    message: 'Use a date between 2000-01-01 and 2999-12-31.',
  });

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const DailyReportListQuerySchema = ListQuerySchema.extend({
  /** Inclusive, a date in the merchant's time zone; default: 29 days before the end. */
  start_date: z.preprocess(emptyToUndefined, ReportDateSchema.optional()),
  /** Inclusive; default: today. */
  end_date: z.preprocess(emptyToUndefined, ReportDateSchema.optional()),
})
  .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    message: 'The start date must not be after the end date.',
    path: ['end_date'],
  })
  .refine(
    (q) => !q.start_date || !q.end_date || daysBetween(q.start_date, q.end_date) < DAILY_REPORT_MAX_DAYS,
    { message: `Choose at most ${DAILY_REPORT_MAX_DAYS} days.`, path: ['start_date'] },
  );
export type DailyReportListQuery = z.infer<typeof DailyReportListQuerySchema>;

/**
 * The money figures of a day (decimal strings, the merchant's currency). The balance is the available
 * balance; the day's entries are the fund flows of the day, so
 * closing = opening + (collection_amount - collection_fee) - (payout_amount + payout_fee) + refunds
 *           + collection_refunds + top_ups + withdrawals + transfers + freezes.
 */
export const DailyFiguresSchema = z.object({
  /** Settled collections credited that day: gross amount, order count and fee (net = amount - fee). */
  collection_amount: z.string(),
  collection_count: z.number(),
  collection_fee: z.string(),
  /** Payouts deducted that day (at creation): amount, count and fee. */
  payout_amount: z.string(),
  payout_count: z.number(),
  payout_fee: z.string(),
  /** Payouts given back (failed, rejected, cancelled, or returned by the bank): money in. */
  refunds: z.string(),
  /** Refunds of collections to their payers (DESIGN 14) less those that failed: signed (money out is negative). */
  collection_refunds: z.string(),
  /** Approved top-ups: money in. */
  top_ups: z.string(),
  /** Withdrawals requested less those rejected: signed (money out is negative). */
  withdrawals: z.string(),
  /** Operator transfers in less transfers out: signed. */
  transfers: z.string(),
  /** Funds unfrozen less funds frozen: signed (a freeze is negative). */
  freezes: z.string(),
  /** Fund flow entries of the day. */
  entries: z.number(),
});

export const DailyReportSchema = DailyFiguresSchema.extend({
  /** The merchant's local date, YYYY-MM-DD. */
  date: z.string(),
  /** The day's first and end instants (ISO 8601 UTC, [starts_at, ends_at)): the Transactions it drills into. */
  starts_at: z.string(),
  ends_at: z.string(),
  opening_balance: z.string(),
  closing_balance: z.string(),
  /** false for today (still moving); true once the day is over and kept. */
  final: z.boolean(),
  currency: CurrencySchema,
});
export type DailyReport = z.infer<typeof DailyReportSchema>;

export const DailyReportSumsSchema = DailyFiguresSchema.extend({
  /** The opening balance of the first day and the closing balance of the last day of the range. */
  opening_balance: z.string(),
  closing_balance: z.string(),
});
export type DailyReportSums = z.infer<typeof DailyReportSumsSchema>;

export const DailyReportListMetaSchema = ListMetaSchema.extend({
  sums: DailyReportSumsSchema,
  /** The range shown (the defaults filled in) and the zone its days are in (the merchant's). */
  start_date: z.string(),
  end_date: z.string(),
  timezone: z.string(),
});
export const DailyReportListResponseSchema = z.object({
  data: z.array(DailyReportSchema),
  meta: DailyReportListMetaSchema,
});
export type DailyReportListResponse = z.infer<typeof DailyReportListResponseSchema>;
