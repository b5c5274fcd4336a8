import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasPerm } from '@paydesk/shared';
import {
  DASHBOARD_SERIES_DAYS,
  DashboardResponseSchema,
} from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { dayRange, localDate } from '@paydesk/shared/time-zone.ts';
import type { AppContext } from '../../context.ts';
import { resolveTimeZone } from '../../lib/timezone.ts';
import { authOf } from '../../plugins/auth-context.ts';
import type { CollectionsService, SeriesDay } from '../collections/index.ts';
import type { PayoutsService } from '../payouts/index.ts';

/** The last `count` local days up to today, oldest first, each with the instants it spans in the zone. */
export function lastDays(today: string, count: number, timeZone: string): SeriesDay[] {
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(`${today}T00:00:00Z`);
    at.setUTCDate(at.getUTCDate() - (count - 1 - i));
    const day = at.toISOString().slice(0, 10);
    const { start, end } = dayRange(day, timeZone);
    return { day, start, end };
  });
}

/**
 * The Dashboard's figures (DESIGN section 5): today's collection and payout figures and the last 30 days'
 * series in the user's time zone, each only for a user who may see that list.
 */
export function registerDashboardModule(
  app: FastifyInstance,
  { guards, now }: AppContext,
  { collections, payouts }: { collections: CollectionsService; payouts: PayoutsService },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/merchant/dashboard',
    {
      preHandler: guards.requirePerm('dashboard:view'),
      schema: { response: { 200: DashboardResponseSchema } },
    },
    async (request) => {
      const { user, merchant, perms } = authOf(request);
      const viewer = {
        merchantId: merchant.id,
        currency: merchant.currency,
        timeZone: resolveTimeZone(user.timezone, request.headers['x-timezone']),
      };
      const today = localDate(now(), viewer.timeZone);
      const { start, end } = dayRange(today, viewer.timeZone);
      const day = { from: start, to: end };
      const days = lastDays(today, DASHBOARD_SERIES_DAYS, viewer.timeZone);
      const seesCollections = hasPerm(perms, 'collection:view');
      const seesPayouts = hasPerm(perms, 'payout:view');
      const [collection, payout, collectionSeries, payoutSeries] = await Promise.all([
        seesCollections ? collections.today(viewer, day) : null,
        seesPayouts ? payouts.today(viewer, day) : null,
        seesCollections ? collections.series(viewer, days) : null,
        seesPayouts ? payouts.series(viewer, days) : null,
      ]);
      return {
        data: {
          today,
          timezone: viewer.timeZone,
          collection,
          payout,
          series: { days: days.map((d) => d.day), collection: collectionSeries, payout: payoutSeries },
        },
      };
    },
  );
}
