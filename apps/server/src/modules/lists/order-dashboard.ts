import { type Currency, fromMinor } from '@paydesk/shared';
import type { TodayCollection } from '@paydesk/shared/collections/collections.schemas.ts';
import type { DayPoint } from '@paydesk/shared/dashboard/dashboard.schemas.ts';
import { and, count, eq, gte, inArray, lt, notInArray, sql, sum } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Viewer } from '../../plugins/auth-context.ts';
import { orderDaySeries, type OrderTable } from './order-rollups.ts';

// The Dashboard's figures of an order kind (collections, payouts): today's card and each day's point of the
// charts, from the same rule of which statuses are paid and which are not finished yet.

/** An order kind's statuses as the Dashboard counts them: `paid`, and `open` (not finished yet). */
export type DayRule = { paid: readonly string[]; open: readonly string[] };

/** A day's figures: orders, paid ones, finished ones (the success rate's base) and the paid amount. */
export type DayFigures = { orders: number; paid: number; finished: number; paidAmountMinor: bigint };

/** A local day of the Dashboard's charts: its start and end instants. */
export type SeriesDay = { day: string; start: Date; end: Date };

/** A day's order figures as the Dashboard shows them (collections and payouts alike). */
export function presentDayFigures(figures: DayFigures, currency: Currency): TodayCollection {
  return {
    paid_amount: fromMinor(figures.paidAmountMinor, currency),
    paid_count: figures.paid,
    order_count: figures.orders,
    // Paid among the finished ones; none finished yet reads as no rate.
    success_rate: figures.finished === 0 ? null : (figures.paid / figures.finished).toFixed(4),
    currency,
  };
}

/**
 * Each day's orders as the Dashboard's charts show them, from the rows counted by status: the figures of
 * the cards (paid, finished, success rate) and the mix by status.
 */
export function presentDaySeries(
  rows: { day: string; status: string; orders: number; amountMinor: bigint }[],
  days: readonly SeriesDay[],
  rule: DayRule,
  currency: Currency,
): DayPoint[] {
  return days.map(({ day }) => {
    const mine = rows.filter((r) => r.day === day);
    const tally = (keep: (status: string) => boolean) =>
      mine.filter((r) => keep(r.status)).reduce((total, r) => total + r.orders, 0);
    const { currency: _currency, ...figures } = presentDayFigures(
      {
        orders: tally(() => true),
        paid: tally((s) => rule.paid.includes(s)),
        finished: tally((s) => !rule.open.includes(s)),
        paidAmountMinor: mine
          .filter((r) => rule.paid.includes(r.status))
          .reduce((total, r) => total + r.amountMinor, 0n),
      },
      currency,
    );
    return { date: day, ...figures, statuses: Object.fromEntries(mine.map((r) => [r.status, r.orders])) };
  });
}

/** The merchant's orders created in [from, to), counted by the rule. */
export async function orderDayFigures(
  db: DbOrTx,
  table: OrderTable,
  merchantId: number,
  { from, to }: { from: Date; to: Date },
  rule: DayRule,
): Promise<DayFigures> {
  const paid = inArray(table.status, [...rule.paid]);
  const [row] = await db
    .select({
      orders: count(),
      paid: sql<number>`count(*) filter (where ${paid})::int`,
      finished: sql<number>`count(*) filter (where ${notInArray(table.status, [...rule.open])})::int`,
      paidAmount: sql<string>`coalesce(${sum(table.amountMinor)} filter (where ${paid}), 0)::text`,
    })
    .from(table)
    .where(and(eq(table.merchantId, merchantId), gte(table.createdAt, from), lt(table.createdAt, to)));
  return {
    orders: Number(row!.orders),
    paid: Number(row!.paid),
    finished: Number(row!.finished),
    paidAmountMinor: BigInt(row!.paidAmount),
  };
}

/** An order kind's Dashboard: today's card and the charts' days, in the viewer's currency. */
export function orderDashboard(db: Db, table: OrderTable, rule: DayRule) {
  return {
    today: async (viewer: Viewer, day: { from: Date; to: Date }): Promise<TodayCollection> =>
      presentDayFigures(await orderDayFigures(db, table, viewer.merchantId, day, rule), viewer.currency),
    series: async (viewer: Viewer, days: readonly SeriesDay[]): Promise<DayPoint[]> =>
      presentDaySeries(
        await orderDaySeries(db, table, viewer.merchantId, [...days]),
        days,
        rule,
        viewer.currency,
      ),
  };
}
