import { and, eq, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Db, type DbOrTx, queryRows, type Tx } from '../../db/client.ts';
import { sqlStateOf } from '../../db/sql-state.ts';
import {
  type Bound,
  closeMinuteRollup,
  horizonMoved,
  rollupSums,
  sumsEq,
  sumsOf,
  sumsValue,
  sumsRowsWhere,
  sumsWithin,
} from './rollup-sums.ts';
import { collections, orderDaily, orderHourly, orderMinutely, payouts } from '../../db/schema/index.ts';

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

export type OrderTable = PgTable & {
  id: PgColumn;
  merchantId: PgColumn;
  tradeNo: PgColumn;
  outTradeNo: PgColumn;
  status: PgColumn;
  createdAt: PgColumn;
  amountMinor: PgColumn;
  feeMinor: PgColumn;
};

/**
 * Count, amount and fee of a whole list filter (DESIGN 8: from rollups, never a scan of the matching rows).
 * Whole UTC days before the horizon come from order_daily plus the changes still waiting in their hours'
 * slots; other whole UTC hours from order_hourly, which triggers keep in step with the orders; only the
 * partial hours at the edges of a time range, and an order-number search (one row at most), read the
 * orders.
 */
export async function orderTotals(
  db: DbOrTx,
  kind: 'collection' | 'payout',
  table: OrderTable,
  f: OrderFilter,
): Promise<OrderTotals> {
  const values = {
    merchantId: f.merchantId,
    kind,
    status: f.status || undefined,
    tradeNo: f.tradeNo || undefined,
    outTradeNo: f.outTradeNo || undefined,
  };
  // The same sums of hour rows (all slots, or only those not yet in the day rows), day or minute rows.
  const part =
    (rollup: typeof orderHourly | typeof orderDaily | typeof orderMinutely, at: PgColumn, only?: SQL) =>
    (from: Bound, to: Bound) =>
      sumsOf(
        rollup,
        { orders: rollup.orders, amount_minor: rollup.amountMinor, fee_minor: rollup.feeMinor },
        and(
          eq(rollup.merchantId, sumsValue('merchantId')),
          eq(rollup.kind, sumsValue('kind')),
          sumsEq(rollup.status, values, 'status'),
          only,
          sumsWithin(at, from, to),
        ),
      );
  const sums = await rollupSums(db, {
    shape: getTableName(table),
    values,
    from: f.from,
    to: f.to,
    rowsOnly: Boolean(values.tradeNo || values.outTradeNo),
    rows: (from, to) => sql`
      select count(*) as orders, coalesce(sum(${table.amountMinor}), 0) as amount_minor,
             coalesce(sum(${table.feeMinor}), 0) as fee_minor
      from ${table}
      where ${sumsRowsWhere(
        table,
        values,
        { tradeNo: table.tradeNo, outTradeNo: table.outTradeNo, status: table.status },
        from,
        to,
      )}`,
    rollup: part(orderHourly, orderHourly.hour),
    days: {
      horizon: ORDER_HORIZON,
      rollup: part(orderDaily, orderDaily.day),
      pending: part(orderHourly, orderHourly.hour, sql`${orderHourly.slot} <> 0`),
    },
    minutes: { horizon: ORDER_MINUTE_HORIZON, rollup: part(orderMinutely, orderMinutely.minute) },
    columns: ['orders', 'amount_minor', 'fee_minor'],
  });
  return {
    count: Number(sums.orders),
    amountMinor: BigInt(sums.amount_minor!),
    feeMinor: BigInt(sums.fee_minor!),
  };
}

/** order_daily's name in rollup_horizons. */
const ORDER_HORIZON = 'order';
/** order_minutely's name in rollup_horizons. */
const ORDER_MINUTE_HORIZON = 'order_minute';
/**
 * Advisory lock key: one close of order minutes at a time, and none while a change to an older order
 * reads which hours are closed (the trigger of migration 0024 holds it shared; the number is written there).
 */
const ORDER_MINUTES_LOCK = 7_246_004;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Slot rows folded in one transaction: the first sweep after a long time folds in several. */
const FOLD_BATCH = 20_000;
/** Advisory lock key: one fold at a time across every process. */
const FOLD_LOCK = 7_246_002;

/**
 * Folds the 16 slots of each past hour of order_hourly into slot 0 and drops rows left at zero (the
 * housekeeping job). The slots only spare concurrent orders of one merchant from waiting on one row while
 * their hour is current; once it is over they only multiply the rows every list sum reads (16 a status and
 * hour: 273,000 at 10 M orders). Safe beside the triggers: a slot row being changed meanwhile is skipped
 * (SKIP LOCKED) and folded by a later sweep. Sums read across slots, so every state in between sums the
 * same. Then sums the UTC days over before `before` into order_daily (closeOrderDays). Answers the number
 * of slot rows folded.
 */
export async function foldOrderHourlySlots(db: Db, before: Date): Promise<number> {
  const folded = await foldSlots(db, before);
  if (folded !== undefined) await closeOrderDays(db, before);
  return folded ?? 0;
}

/**
 * Moves order_minutely's horizon to the last UTC hour at or before `before`, writing the minute rows of
 * the hours it passes from their collections and payouts (the housekeeping job; closeMinuteRollup). Never
 * an hour that ended less than an hour before the database's clock: the trigger takes the lock only for
 * orders created over 50 minutes before. The first close starts at the merchants' oldest order.
 */
export function closeOrderMinutes(db: Db, before: Date): Promise<Date | undefined> {
  const kinds = [
    [collections, 'collection'],
    [payouts, 'payout'],
  ] as const;
  return closeMinuteRollup(db, {
    lock: ORDER_MINUTES_LOCK,
    horizon: ORDER_MINUTE_HORIZON,
    before,
    minAge: HOUR_MS,
    tables: kinds.map(([table]) => table),
    build: (tx, from, to) =>
      tx.execute(sql`
        insert into ${orderMinutely} (kind, merchant_id, status, minute, orders, amount_minor, fee_minor)
        select o.kind, m.id, o.status, date_bin('1 minute', o.created_at, timestamptz '2000-01-01 00:00:00+00'),
               count(*), sum(o.amount_minor), sum(o.fee_minor)
        from merchants m
        cross join lateral (${sql.join(
          kinds.map(
            ([table, kind]) => sql`select ${kind}::text as kind, status, created_at, amount_minor, fee_minor
                                   from ${table}
                                   where merchant_id = m.id and created_at >= ${from.toISOString()}::timestamptz
                                     and created_at < ${to.toISOString()}::timestamptz`,
          ),
          sql` union all `,
        )}) as o
        group by 1, 2, 3, 4`),
  });
}

/** Undefined when another process is folding. */
async function foldSlots(db: Db, before: Date): Promise<number | undefined> {
  let total = 0;
  for (;;) {
    let folded: number | undefined;
    try {
      folded = await db.transaction(async (tx) => {
        const [lock] = await queryRows<{ got: boolean }>(
          tx,
          sql`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as got`,
        );
        if (!lock?.got) return undefined;
        await tx.execute(sql`set local lock_timeout = '200ms'`);
        // Slot 0 accepts writes only from a transaction marked so (migration 0020).
        await tx.execute(sql`set local paydesk.folding = 'on'`);
        return foldBatch(tx, before);
      });
    } catch (error) {
      const code = sqlStateOf(error);
      // lock_not_available, deadlock_detected: rows busy with orders; the next sweep folds them.
      if (code === '55P03' || code === '40P01') return total;
      throw error;
    }
    if (folded === undefined) return total === 0 ? undefined : total;
    total += folded;
    if (folded < FOLD_BATCH) return total;
  }
}

async function foldBatch(tx: Tx, before: Date): Promise<number> {
  const [folded] = await queryRows<{ rows: number; zeros: string }>(
    tx,
    sql`with picked as (
          select merchant_id, kind, status, hour, slot from ${orderHourly}
          where slot <> 0 and hour < ${before.toISOString()}::timestamptz
          order by hour
          limit ${FOLD_BATCH}
          for update skip locked
        ), moved as (
          delete from ${orderHourly} o using picked p
          where o.merchant_id = p.merchant_id and o.kind = p.kind and o.status = p.status
            and o.hour = p.hour and o.slot = p.slot
          returning o.kind, o.merchant_id, o.status, o.hour, o.orders, o.amount_minor, o.fee_minor
        ), summed as (
          select kind, merchant_id, status, hour, count(*)::int as rows, sum(orders) as orders,
                 sum(amount_minor) as amount_minor, sum(fee_minor) as fee_minor
          from moved group by kind, merchant_id, status, hour
        ), kept as (
          insert into ${orderHourly} as o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
          select kind, merchant_id, status, hour, 0, orders, amount_minor, fee_minor from summed
          on conflict (merchant_id, kind, status, hour, slot) do update
            set orders = o.orders + excluded.orders,
                amount_minor = o.amount_minor + excluded.amount_minor,
                fee_minor = o.fee_minor + excluded.fee_minor
          returning kind, merchant_id, status, hour, orders, amount_minor, fee_minor
        ), daily as (
          -- A late change to an order of a day order_daily has: into its day row too, in the same step.
          insert into ${orderDaily} as d (kind, merchant_id, status, day, orders, amount_minor, fee_minor)
          select kind, merchant_id, status, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00'),
                 sum(orders), sum(amount_minor), sum(fee_minor)
          from summed
          where hour < (select before from rollup_horizons where rollup = ${ORDER_HORIZON})
          group by 1, 2, 3, 4
          on conflict (merchant_id, kind, status, day) do update
            set orders = d.orders + excluded.orders,
                amount_minor = d.amount_minor + excluded.amount_minor,
                fee_minor = d.fee_minor + excluded.fee_minor
        ), zeros as (
          select kind, merchant_id, status, hour from kept
          where orders = 0 and amount_minor = 0 and fee_minor = 0
          union
          -- Slot 0 is a live slot too: from the first hour folded on, its rows may be at zero already (as read
          -- before this statement's upsert; the delete below looks again).
          select o.kind, o.merchant_id, o.status, o.hour from ${orderHourly} o
          join (select kind, merchant_id, min(hour) as since from moved group by kind, merchant_id) h
            on o.merchant_id = h.merchant_id and o.kind = h.kind and o.hour >= h.since
          where o.hour < ${before.toISOString()}::timestamptz and o.slot = 0
            and o.orders = 0 and o.amount_minor = 0 and o.fee_minor = 0
        )
        select (select coalesce(sum(rows), 0)::int from summed) as rows,
               (select coalesce(json_agg(json_build_object('kind', kind, 'merchant_id', merchant_id,
                                                           'status', status, 'hour', hour)), '[]')::text
                from zeros) as zeros`,
  );
  // An hour whose orders all moved on keeps a row of zeros for the status they left: gone, unless a change
  // came meanwhile (the condition is checked again on the row as it is then).
  const zeros = folded?.zeros ?? '[]';
  if (zeros !== '[]') {
    await tx.execute(
      sql`delete from ${orderHourly} o
          using json_to_recordset(${zeros}::json) as z(kind text, merchant_id bigint, status text, hour timestamptz)
          where o.merchant_id = z.merchant_id and o.kind = z.kind and o.status = z.status and o.hour = z.hour
            and o.slot = 0 and o.orders = 0 and o.amount_minor = 0 and o.fee_minor = 0`,
    );
  }
  return folded?.rows ?? 0;
}

/**
 * Moves order_daily's horizon to the last UTC midnight at or before `before`, writing the rows of the days
 * it passes from their hours' slot-0 rows (slots the fold skipped stay pending: readers add them, the next
 * fold moves them into both). One process at a time (the fold's lock), in one transaction with the new
 * horizon: a reader sees the days before it and their rows together, or neither.
 */
async function closeOrderDays(db: Db, before: Date): Promise<void> {
  const until = new Date(Math.floor(before.getTime() / DAY_MS) * DAY_MS).toISOString();
  await db.transaction(async (tx) => {
    const [lock] = await queryRows<{ got: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as got`,
    );
    if (!lock?.got) return;
    await tx.execute(sql`
      with since as (
        select coalesce((select before from rollup_horizons where rollup = ${ORDER_HORIZON}),
                        '-infinity'::timestamptz) as at
      ), days as (
        insert into ${orderDaily} (kind, merchant_id, status, day, orders, amount_minor, fee_minor)
        select kind, merchant_id, status, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00'),
               sum(orders), sum(amount_minor), sum(fee_minor)
        from ${orderHourly}
        where slot = 0 and hour >= (select at from since) and hour < ${until}::timestamptz
        group by 1, 2, 3, 4
      )
      insert into rollup_horizons (rollup, before) values (${ORDER_HORIZON}, ${until}::timestamptz)
      on conflict (rollup) do update set before = excluded.before
        where rollup_horizons.before < excluded.before`);
  });
  horizonMoved(db, ORDER_HORIZON);
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

/** Order ids a single rollup statement counts at most (a statement of 1 M lines: 20 statements). */
const MOVES_CHUNK = 50_000;

/**
 * The rollups of orders changed in bulk (a statement import pays thousands in one transaction): the bulk
 * update runs under `standAside`, so the orders' row triggers do not count them one at a time (the same
 * slot rows updated thousands of times in one transaction, each update slower than the last), and the
 * moves are counted by `apply`, grouped, once the last order has changed: call it last, before the
 * commit, where the row triggers would have taken the slots' locks (migration 0034).
 */
export function orderRollupMoves(kind: 'collection' | 'payout', fromStatus: string) {
  const ids: number[] = [];
  return {
    /** Runs the update of orders leaving `fromStatus` with their row triggers standing aside. */
    async standAside<T extends { id: number }>(tx: Tx, update: () => Promise<T[]>): Promise<T[]> {
      await tx.execute(sql`select set_config('paydesk.order_rollups', 'by_caller', true)`);
      const rows = await update();
      await tx.execute(sql`select set_config('paydesk.order_rollups', '', true)`);
      for (const row of rows) ids.push(row.id);
      return rows;
    },
    /** Counts every order moved so far, grouped (order_rollups_moved), then forgets them. */
    async apply(tx: Tx): Promise<void> {
      for (let start = 0; start < ids.length; start += MOVES_CHUNK)
        await tx.execute(
          sql`select order_rollups_moved(${kind}, ${fromStatus}, ${sql.param(ids.slice(start, start + MOVES_CHUNK))}::bigint[])`,
        );
      ids.length = 0;
    },
  };
}

export type OrderRollupMoves = ReturnType<typeof orderRollupMoves>;

/**
 * Deletes every order of one kind of a merchant (its test data) and takes them out of the rollups in the
 * same statement, grouped: their row triggers stand aside, as for orderRollupMoves (one trigger an order
 * made 40,000 orders take 5 s, a million hours). An order of an hour closed into minutes leaves its minute
 * too, the horizon read under the shared lock the close takes exclusively. Answers how many it deleted.
 */
export async function deleteOrdersCounted(
  tx: Tx,
  kind: 'collection' | 'payout',
  merchantId: number,
): Promise<number> {
  const table = sql.identifier(kind === 'collection' ? 'collections' : 'payouts');
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${ORDER_MINUTES_LOCK})`);
  const [horizon] = await queryRows<{ before: Date | string | null }>(
    tx,
    sql`select before from rollup_horizons where rollup = ${ORDER_MINUTE_HORIZON}`,
  );
  const closed = horizon?.before ? new Date(horizon.before).toISOString() : null;
  await tx.execute(sql`select set_config('paydesk.order_rollups', 'by_caller', true)`);
  const [row] = await queryRows<{ deleted: number }>(
    tx,
    sql`with gone as (
          delete from ${table} where merchant_id = ${merchantId}
          returning id, merchant_id, status, created_at, amount_minor, fee_minor),
        hours as (
          insert into order_hourly as o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
          select ${kind}, merchant_id, status,
                 date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'), 1 + id % 16,
                 -count(*), -sum(amount_minor), -sum(fee_minor)
            from gone group by 2, 3, 4, 5
          on conflict (merchant_id, kind, status, hour, slot) do update
            set orders = o.orders + excluded.orders, amount_minor = o.amount_minor + excluded.amount_minor,
                fee_minor = o.fee_minor + excluded.fee_minor),
        minutes as (
          insert into order_minutely as o (kind, merchant_id, status, minute, orders, amount_minor, fee_minor)
          select ${kind}, merchant_id, status,
                 date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'),
                 -count(*), -sum(amount_minor), -sum(fee_minor)
            from gone where created_at < ${closed}::timestamptz group by 2, 3, 4
          on conflict (merchant_id, kind, status, minute) do update
            set orders = o.orders + excluded.orders, amount_minor = o.amount_minor + excluded.amount_minor,
                fee_minor = o.fee_minor + excluded.fee_minor)
        select count(*)::int as deleted from gone`,
  );
  await tx.execute(sql`select set_config('paydesk.order_rollups', '', true)`);
  return row!.deleted;
}
