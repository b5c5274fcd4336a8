import { fromMinor, hasPerm, type Perm } from '@paydesk/shared';
import { DASHBOARD_SERIES_DAYS, type Dashboard } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { dayRange, localDate } from '@paydesk/shared/time-zone.ts';
import type { Viewer } from '../../plugins/auth-context.ts';
import type { CollectionsService } from '../collections/index.ts';
import type { SeriesDay } from '../lists/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import type { RefundsService } from '../refunds/index.ts';

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

export type DashboardService = ReturnType<typeof createDashboardService>;

export function createDashboardService({
  collections,
  payouts,
  refunds,
  now,
}: {
  collections: Pick<CollectionsService, 'today' | 'series'>;
  payouts: Pick<PayoutsService, 'today' | 'series' | 'waitingForApproval'>;
  refunds: Pick<RefundsService, 'today'>;
  now: () => Date;
}) {
  /**
   * Today's collection and payout figures and the last 30 days' series in the viewer's time zone, each
   * only for a user who may see that list.
   */
  async function overview(viewer: Viewer, perms: readonly Perm[]): Promise<Dashboard> {
    const today = localDate(now(), viewer.timeZone);
    const { start, end } = dayRange(today, viewer.timeZone);
    const day = { from: start, to: end };
    const days = lastDays(today, DASHBOARD_SERIES_DAYS, viewer.timeZone);
    const seesCollections = hasPerm(perms, 'collection:view');
    const seesPayouts = hasPerm(perms, 'payout:view');
    const [collection, payout, collectionSeries, payoutSeries, refundsToday, waiting] = await Promise.all([
      seesCollections ? collections.today(viewer, day) : null,
      seesPayouts ? payouts.today(viewer, day) : null,
      seesCollections ? collections.series(viewer, days) : null,
      seesPayouts ? payouts.series(viewer, days) : null,
      seesCollections ? refunds.today(viewer.merchantId, viewer.currency, day) : null,
      seesPayouts ? payouts.waitingForApproval(viewer.merchantId) : null,
    ]);
    return {
      today,
      timezone: viewer.timeZone,
      collection,
      payout,
      refunds: refundsToday,
      payout_approval: waiting && {
        count: waiting.count,
        amount: fromMinor(waiting.amountMinor, viewer.currency),
        currency: viewer.currency,
      },
      series: { days: days.map((d) => d.day), collection: collectionSeries, payout: payoutSeries },
    };
  }

  return { overview };
}
