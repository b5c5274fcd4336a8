import { and, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type DbOrTx, queryRows } from './client.ts';
import { hourlyTotals } from './hourly-totals.ts';
import { orderHourly } from './schema/index.ts';

/** What the collection and payout lists filter on (DESIGN 5). */
export type OrderFilter = {
  merchantId: number;
  tradeNo?: string;
  outTradeNo?: string;
  status?: string;
  /** [from, to) in UTC. */
  from?: Date;
  to?: Date;
  /** Exports' snapshot: only rows with an id up to this one (row reads only; totals never take it). */
  maxId?: number;
};

export type OrderTotals = { count: number; amountMinor: bigint; feeMinor: bigint };

type OrderTable = PgTable & {
  id: PgColumn;
  merchantId: PgColumn;
  tradeNo: PgColumn;
  outTradeNo: PgColumn;
  status: PgColumn;
  createdAt: PgColumn;
  amountMinor: PgColumn;
  feeMinor: PgColumn;
};

/** The list filter as a WHERE on the orders themselves. */
export function orderWhere(table: OrderTable, f: OrderFilter, from = f.from, to = f.to): SQL | undefined {
  return and(
    eq(table.merchantId, f.merchantId),
    f.tradeNo ? eq(table.tradeNo, f.tradeNo) : undefined,
    f.outTradeNo ? eq(table.outTradeNo, f.outTradeNo) : undefined,
    f.status ? eq(table.status, f.status) : undefined,
    from ? gte(table.createdAt, from) : undefined,
    to ? lt(table.createdAt, to) : undefined,
    f.maxId !== undefined ? lte(table.id, f.maxId) : undefined,
  );
}

/**
 * Count, amount and fee of a whole list filter (DESIGN 8: from rollups, never a scan of the matching rows).
 * Whole UTC hours come from order_hourly, which triggers keep in step with the orders; only the partial
 * hours at the edges of a time range, and an order-number search (one row at most), read the orders.
 */
export async function orderTotals(
  db: DbOrTx,
  kind: 'collection' | 'payout',
  table: OrderTable,
  f: OrderFilter,
): Promise<OrderTotals> {
  const sums = await hourlyTotals(db, {
    from: f.from,
    to: f.to,
    rowsOnly: Boolean(f.tradeNo || f.outTradeNo),
    rows: (from, to) => sql`
      select count(*) as orders, coalesce(sum(${table.amountMinor}), 0) as amount_minor,
             coalesce(sum(${table.feeMinor}), 0) as fee_minor
      from ${table} where ${orderWhere(table, f, from, to)}`,
    rollup: (from, to) => sql`
      select coalesce(sum(${orderHourly.orders}), 0) as orders,
             coalesce(sum(${orderHourly.amountMinor}), 0) as amount_minor,
             coalesce(sum(${orderHourly.feeMinor}), 0) as fee_minor
      from ${orderHourly}
      where ${and(
        eq(orderHourly.kind, kind),
        eq(orderHourly.merchantId, f.merchantId),
        f.status ? eq(orderHourly.status, f.status) : undefined,
        from ? gte(orderHourly.hour, from) : undefined,
        to ? lt(orderHourly.hour, to) : undefined,
      )}`,
    columns: ['orders', 'amount_minor', 'fee_minor'],
  });
  return {
    count: Number(sums.orders),
    amountMinor: BigInt(sums.amount_minor!),
    feeMinor: BigInt(sums.fee_minor!),
  };
}

export type OrderDayRow = { day: string; status: string; orders: number; amountMinor: bigint };

/** Orders created on each local day ([start, end) in UTC), counted and summed by status (the Dashboard). */
export async function orderDaySeries(
  db: DbOrTx,
  table: OrderTable,
  merchantId: number,
  days: { day: string; start: Date; end: Date }[],
): Promise<OrderDayRow[]> {
  if (days.length === 0) return [];
  const values = sql.join(
    days.map(
      (d) =>
        sql`(${d.day}::text, ${d.start.toISOString()}::timestamptz, ${d.end.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ day: string; status: string; orders: unknown; amount: unknown }>(
    db,
    sql`with days(day, starts_at, ends_at) as (values ${values})
        select d.day, o.status, count(*)::int as orders, sum(o.amount_minor)::text as amount
        from days d
        join ${table} o on o.merchant_id = ${merchantId} and o.created_at >= d.starts_at and o.created_at < d.ends_at
        group by d.day, o.status order by d.day, o.status`,
  );
  return rows.map((r) => ({
    day: r.day,
    status: r.status,
    orders: Number(r.orders),
    amountMinor: BigInt(String(r.amount)),
  }));
}
