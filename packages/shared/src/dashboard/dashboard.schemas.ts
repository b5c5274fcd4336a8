import { z } from 'zod';
import { TodayCollectionSchema } from '../collections/collections.schemas.ts';
import { CurrencySchema } from '../money.ts';

// ---- GET /api/merchant/dashboard: today's figures in the user's time zone (needs dashboard:view; the
// collection card is there only for users with collection:view).

/** How many local days the charts cover (the 7-day view is the last 7 of them). */
export const DASHBOARD_SERIES_DAYS = 30;

/** One local day of orders created that day: the figures of the cards, and how many ended in each status. */
export const DayPointSchema = TodayCollectionSchema.omit({ currency: true }).extend({
  /** The user's local date, YYYY-MM-DD. */
  date: z.string(),
  /** Orders created that day by their status now ("paid": 12, "closed": 3). */
  statuses: z.record(z.string(), z.number()),
});
export type DayPoint = z.infer<typeof DayPointSchema>;

export const DashboardSeriesSchema = z.object({
  /** The last DASHBOARD_SERIES_DAYS local days, oldest first, today last. */
  days: z.array(z.string()),
  collection: z.array(DayPointSchema).nullable(),
  payout: z.array(DayPointSchema).nullable(),
});
export type DashboardSeries = z.infer<typeof DashboardSeriesSchema>;

/** Refunds created today that did not fail (processing or succeeded): what leaves to payers (DESIGN 14). */
export const TodayRefundsSchema = z.object({
  amount: z.string(),
  count: z.number(),
  currency: CurrencySchema,
});
export type TodayRefunds = z.infer<typeof TodayRefundsSchema>;

export const DashboardSchema = z.object({
  /** The user's local date the figures are for (YYYY-MM-DD). */
  today: z.string(),
  /** The zone "today" and the series' days are in (the user's saved zone, else the browser's). */
  timezone: z.string(),
  collection: TodayCollectionSchema.nullable(),
  /** Today's payouts (paid = succeeded today), for users with payout:view; null otherwise. */
  payout: TodayCollectionSchema.nullable(),
  /** Today's refunds of collections, for users with collection:view; null otherwise. */
  refunds: TodayRefundsSchema.nullable(),
  /**
   * Payouts waiting for approval (DESIGN 16), whatever day they were made: how many and their amount, for
   * users with payout:view; null otherwise.
   */
  payout_approval: TodayRefundsSchema.nullable(),
  /** Per-day figures for the charts, each null for a user who may not see that list. */
  series: DashboardSeriesSchema,
});
export type Dashboard = z.infer<typeof DashboardSchema>;
export const DashboardResponseSchema = z.object({ data: DashboardSchema });
