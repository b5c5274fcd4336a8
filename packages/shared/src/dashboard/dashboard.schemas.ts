import { z } from 'zod';
import { TodayCollectionSchema } from '../collections/collections.schemas.ts';

// ---- GET /api/merchant/dashboard: today's figures in the user's time zone (needs dashboard:view; the
// collection card is there only for users with collection:view).

export const DashboardSchema = z.object({
  /** The user's local date the figures are for (YYYY-MM-DD). */
  today: z.string(),
  collection: TodayCollectionSchema.nullable(),
  /** Today's payouts (paid = succeeded today), for users with payout:view; null otherwise. */
  payout: TodayCollectionSchema.nullable(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
export const DashboardResponseSchema = z.object({ data: DashboardSchema });
