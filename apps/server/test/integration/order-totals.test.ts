import { sql } from 'drizzle-orm';
import pg from 'pg';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import {
  closeOrderMinutes,
  deleteOrdersCounted,
  foldOrderHourlySlots,
  horizonMoved,
  type OrderFilter,
  orderRollupMoves,
} from '../../src/modules/lists/index.ts';
import { sweepExpired } from '../../src/jobs/housekeeping.ts';
import { collectionsList } from '../../src/modules/collections/index.ts';
import { payoutsList } from '../../src/modules/payouts/index.ts';
import { createGatewayMerchant, type GatewayMerchant } from '../factories/gateway.ts';
import { createTestApp, type TestContext, testDatabaseKind } from '../helpers/test-app.ts';

// DESIGN 8: a list's sums come from rollups, never a scan of the matching rows. order_hourly is kept by
// triggers on every insert and status change; whatever the filter (status, any time range cutting hours
// anywhere, an order number), the sums it gives equal those of the orders themselves.

let ctx: TestContext;
let m: GatewayMerchant;
let other: GatewayMerchant;
const START = Date.parse('2026-11-20T00:00:00Z');
const SPAN_MS = 3 * 24 * 3_600_000;

beforeAll(async () => {
  ctx = await createTestApp();
  m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
  other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
  const db = ctx.database.db;
  // 600 of each over three days and two merchants, then a third of them move on, as the life cycles do.
  for (const merchant of [m, other]) {
    await db.execute(sql`
      insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                               fee_minor, currency, expires_at, created_at)
      select ${merchant.merchant.id}::bigint, ${merchant.channel!.id}::bigint, 'sandbox',
             'C' || ${merchant.merchant.id}::text || lpad(g::text, 8, '0'), 'O-' || g, 100 + (g * 7919) % 100000,
             (g * 31) % 500, 'CNY', now(),
             ${new Date(START).toISOString()}::timestamptz + ((g::bigint * 104729) % ${SPAN_MS / 1000}) * interval '1 second'
      from generate_series(1, 300) g`);
    await db.execute(sql`
      insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                           fee_minor, currency, account_type, payee_name, account_no, created_at)
      select ${merchant.merchant.id}::bigint, ${merchant.channel!.id}::bigint, 'sandbox-pay',
             'P' || ${merchant.merchant.id}::text || lpad(g::text, 8, '0'), 'PO-' || g, 'gateway',
             100 + (g * 7919) % 100000, 60 + g % 7, 'CNY', 'individual', 'Payee', '6222020200112233',
             ${new Date(START).toISOString()}::timestamptz + ((g::bigint * 15485863) % ${SPAN_MS / 1000}) * interval '1 second'
      from generate_series(1, 300) g`);
  }
  await db.execute(sql`update collections set status = 'paid' where id % 3 = 0`);
  await db.execute(sql`update collections set status = 'closed' where id % 5 = 1`);
  await db.execute(sql`update payouts set status = 'processing' where id % 2 = 0`);
  await db.execute(sql`update payouts set status = 'success' where id % 4 = 0`);
  await db.execute(sql`update payouts set status = 'refund_received' where id % 12 = 0`);
});
afterAll(() => ctx?.close());

const scan = async (table: 'collections' | 'payouts', f: OrderFilter) => {
  const [row] = await queryRows<{ count: number; amount: string; fee: string }>(
    ctx.database.db,
    sql`select count(*)::int as count, coalesce(sum(amount_minor), 0)::text as amount,
               coalesce(sum(fee_minor), 0)::text as fee
        from ${sql.identifier(table)}
        where merchant_id = ${f.merchantId}
          and (${f.status ?? null}::text is null or status = ${f.status ?? null})
          and (${f.tradeNo ?? null}::text is null or trade_no = ${f.tradeNo ?? null})
          and (${f.from?.toISOString() ?? null}::timestamptz is null or created_at >= ${f.from?.toISOString() ?? null}::timestamptz)
          and (${f.to?.toISOString() ?? null}::timestamptz is null or created_at < ${f.to?.toISOString() ?? null}::timestamptz)`,
  );
  return { count: row.count, amountMinor: BigInt(row.amount), feeMinor: BigInt(row.fee) };
};

/** A filter as the lists make them: maybe a status, maybe a range cut at any second, rarely an order number. */
const filters = (statuses: string[], prefix: 'C' | 'P') =>
  fc
    .record({
      status: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
      from: fc.option(fc.integer({ min: -3600, max: SPAN_MS / 1000 + 3600 }), { nil: undefined }),
      length: fc.option(fc.integer({ min: 0, max: SPAN_MS / 1000 }), { nil: undefined }),
      order: fc.option(fc.integer({ min: 1, max: 320 }), { nil: undefined }),
    })
    .map(({ status, from, length, order }): OrderFilter => ({
      merchantId: m.merchant.id,
      ...(status ? { status } : {}),
      ...(from !== undefined ? { from: new Date(START + from * 1000) } : {}),
      ...(length !== undefined ? { to: new Date(START + ((from ?? 0) + length) * 1000) } : {}),
      ...(order !== undefined && order % 5 === 0
        ? { tradeNo: `${prefix}${m.merchant.id}${String(order).padStart(8, '0')}` }
        : {}),
    }));

describe('list sums from the hourly rollup', () => {
  it('equal the collections’ own sums for any filter', async () => {
    await fc.assert(
      fc.asyncProperty(filters(['to_be_paid', 'paid', 'closed', 'failed'], 'C'), async (f) => {
        expect(await collectionsList.totals(ctx.database.db, f)).toEqual(await scan('collections', f));
      }),
      { numRuns: 60 },
    );
  });

  it('equal the payouts’ own sums for any filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        filters(['pending', 'processing', 'success', 'failed', 'refund_received'], 'P'),
        async (f) => {
          expect(await payoutsList.totals(ctx.database.db, f)).toEqual(await scan('payouts', f));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('follow an order through its life: counted once, under its current status', async () => {
    const before = await payoutsList.totals(ctx.database.db, {
      merchantId: m.merchant.id,
      status: 'failed',
    });
    await ctx.database.db.execute(
      sql`update payouts set status = 'failed' where merchant_id = ${m.merchant.id} and status = 'processing'`,
    );
    const after = await payoutsList.totals(ctx.database.db, {
      merchantId: m.merchant.id,
      status: 'failed',
    });
    const all = await payoutsList.totals(ctx.database.db, { merchantId: m.merchant.id });
    expect(after.count).toBeGreaterThan(before.count);
    expect(all.count).toBe(300);
    expect(after).toEqual(await scan('payouts', { merchantId: m.merchant.id, status: 'failed' }));
  });
});

describe('the rollup folded by housekeeping', () => {
  const rollupRows = async () =>
    (
      await queryRows<{ slot: number; zero: boolean; hour: Date | string }>(
        ctx.database.db,
        sql`select slot, (orders = 0 and amount_minor = 0 and fee_minor = 0) as zero, hour from order_hourly
            where merchant_id = ${m.merchant.id}`,
      )
    ).map((r) => ({ slot: Number(r.slot), zero: r.zero, hour: new Date(r.hour) }));
  const collectionFilters = filters(['to_be_paid', 'paid', 'closed', 'failed'], 'C');
  const payoutFilters = filters(['pending', 'processing', 'success', 'failed', 'refund_received'], 'P');
  const sumsHold = async () => {
    await fc.assert(
      fc.asyncProperty(collectionFilters, payoutFilters, async (c, p) => {
        expect(await collectionsList.totals(ctx.database.db, c)).toEqual(await scan('collections', c));
        expect(await payoutsList.totals(ctx.database.db, p)).toEqual(await scan('payouts', p));
      }),
      { numRuns: 40 },
    );
  };

  it('keeps one row per status and hour once the hour is over, and every sum as it was', async () => {
    const before = await rollupRows();
    expect(before.some((r) => r.slot !== 0)).toBe(true);
    // The sweep at the end of the second day folds the first day and the hour before the last one.
    const sweepAt = new Date(START + 2 * 24 * 3_600_000 + 30 * 60_000);
    await sweepExpired(ctx.database.db, sweepAt);
    const cutoff = START + 2 * 24 * 3_600_000 - 3_600_000;
    const after = await rollupRows();
    expect(after.filter((r) => r.hour.getTime() < cutoff && r.slot !== 0)).toEqual([]);
    expect(after.filter((r) => r.hour.getTime() < cutoff && r.zero)).toEqual([]);
    // The hours not yet over for an hour keep their slots.
    expect(after.filter((r) => r.hour.getTime() >= cutoff)).toEqual(
      before.filter((r) => r.hour.getTime() >= cutoff),
    );
    expect(after.length).toBeLessThan(before.length);
    await sumsHold();
  });

  it('stays exact when orders of folded hours change later, and folds them again', async () => {
    await foldOrderHourlySlots(ctx.database.db, new Date(START + SPAN_MS + 3_600_000));
    expect((await rollupRows()).filter((r) => r.slot !== 0)).toEqual([]);
    // Late changes land in their slots again (a payout refunded days later, an order moved back).
    await ctx.database.db.execute(
      sql`update payouts set status = 'refund_received' where merchant_id = ${m.merchant.id} and status = 'success' and id % 3 = 0`,
    );
    await ctx.database.db.execute(
      sql`update collections set status = 'failed' where merchant_id = ${m.merchant.id} and status = 'to_be_paid' and id % 2 = 0`,
    );
    expect((await rollupRows()).some((r) => r.slot !== 0)).toBe(true);
    await sumsHold();
    expect(
      await foldOrderHourlySlots(ctx.database.db, new Date(START + SPAN_MS + 3_600_000)),
    ).toBeGreaterThan(0);
    expect((await rollupRows()).filter((r) => r.slot !== 0 || r.zero)).toEqual([]);
    await sumsHold();
  });

  it('loses no change made while it folds (two connections on PostgreSQL)', async () => {
    const { db } = ctx.database;
    // Orders change status back and forth while folds run beside them, many times over.
    const changes = Array.from({ length: 40 }, (_, i) =>
      db.execute(
        sql`update payouts set status = ${i % 2 === 0 ? 'failed' : 'processing'}
            where merchant_id = ${m.merchant.id} and id % 40 = ${i} and status in ('failed', 'processing')`,
      ),
    );
    const folds = Array.from({ length: 10 }, () =>
      foldOrderHourlySlots(db, new Date(START + SPAN_MS + 3_600_000)),
    );
    await Promise.all([...changes, ...folds]);
    await foldOrderHourlySlots(db, new Date(START + SPAN_MS + 3_600_000));
    expect((await rollupRows()).filter((r) => r.slot !== 0)).toEqual([]);
    await sumsHold();
  });

  /** Minute rows that differ from their orders' (kind, merchant, status, minute) sums before the horizon. */
  const minutesOff = async () => {
    const [row] = await queryRows<{ off: number }>(
      ctx.database.db,
      sql`with horizon as (select before from rollup_horizons where rollup = 'order_minute'),
          orders as (
            select 'collection' as kind, merchant_id, status, created_at, amount_minor, fee_minor from collections
            union all
            select 'payout', merchant_id, status, created_at, amount_minor, fee_minor from payouts
          )
          select count(*)::int as off from (
            select kind, merchant_id, status, minute
            from (select kind, merchant_id, status,
                         date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00') as minute,
                         1 as orders, amount_minor, fee_minor
                  from orders where created_at < (select before from horizon)
                  union all
                  select kind, merchant_id, status, minute, -orders, -amount_minor, -fee_minor
                  from order_minutely) as both_sides
            group by 1, 2, 3, 4
            having sum(orders) <> 0 or sum(amount_minor) <> 0 or sum(fee_minor) <> 0
          ) as differing`,
    );
    return row!.off;
  };
  const closedAt = new Date(START + SPAN_MS + 3_600_000);

  it('closes the hours over into minute rows that sum as the orders do, and stay so as orders change', async () => {
    const { db } = ctx.database;
    // The sweeps above closed the first two days; this closes the rest.
    expect(await closeOrderMinutes(db, new Date(closedAt.getTime() + 30 * 60_000))).toEqual(closedAt);
    const [closed] = await queryRows<{ rows: number }>(
      db,
      sql`select count(*)::int as rows from order_minutely where merchant_id = ${m.merchant.id}`,
    );
    expect(closed!.rows).toBeGreaterThan(500);
    expect(await minutesOff()).toBe(0);
    await sumsHold();
    // Orders of closed hours change status, and one arrives dated in one (as an import writes it).
    await db.execute(sql`update collections set status = 'failed' where id % 7 = 2 and status <> 'failed'`);
    await db.execute(
      sql`update payouts set status = 'refund_received' where id % 9 = 4 and status = 'success'`,
    );
    await db.execute(sql`
      insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                           fee_minor, currency, account_type, payee_name, account_no, created_at)
      values (${m.merchant.id}, ${m.channel!.id}, 'sandbox-pay', 'P-LATE-IMPORT', 'PO-LATE', 'gateway', 4321, 61,
              'CNY', 'individual', 'Payee', '6222020200112233', ${new Date(START + 3_600_000 + 17_000).toISOString()})`);
    expect(await minutesOff()).toBe(0);
    await sumsHold();
    // It only moves forward, and never into the last hour by the database's clock.
    expect(await closeOrderMinutes(db, new Date(START))).toBeUndefined();
    const lastHour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
    const latest = await closeOrderMinutes(db, new Date(Date.now() + 6 * 3_600_000));
    expect(latest!.getTime()).toBeLessThanOrEqual(lastHour);
    expect(latest!.getTime()).toBeGreaterThanOrEqual(lastHour - 3_600_000);
    expect(await minutesOff()).toBe(0);
  });

  it('counts orders paid in bulk (a statement import) once, grouped, in their hours and closed minutes', async () => {
    const { db } = ctx.database;
    const paidBefore = await scan('collections', { merchantId: m.merchant.id, status: 'paid' });
    const moves = orderRollupMoves('collection', 'to_be_paid');
    const paid = await db.transaction(async (tx) => {
      // Two bulk updates, as two batches of one import, then the moves counted once at the end.
      const first = await moves.standAside(tx, () =>
        queryRows<{ id: number }>(
          tx,
          sql`update collections set status = 'paid'
              where status = 'to_be_paid' and id % 4 = 1 returning id`,
        ),
      );
      const second = await moves.standAside(tx, () =>
        queryRows<{ id: number }>(
          tx,
          sql`update collections set status = 'paid'
              where status = 'to_be_paid' and id % 4 = 3 returning id`,
        ),
      );
      await moves.apply(tx);
      return first.length + second.length;
    });
    expect(paid).toBeGreaterThan(100);
    const paidAfter = await scan('collections', { merchantId: m.merchant.id, status: 'paid' });
    expect(paidAfter.count).toBeGreaterThan(paidBefore.count);
    // Counted once: not by the row triggers as well (twice), nor left out.
    expect(await collectionsList.totals(db, { merchantId: m.merchant.id, status: 'paid' })).toEqual(
      paidAfter,
    );
    expect(await minutesOff()).toBe(0);
    await sumsHold();
  });

  it('takes a merchant’s deleted orders (its test data) out of its hours and closed minutes at once', async () => {
    const { db } = ctx.database;
    const id = other.merchant.id;
    const deleted = await db.transaction(async (tx) => [
      await deleteOrdersCounted(tx, 'collection', id),
      await deleteOrdersCounted(tx, 'payout', id),
    ]);
    expect(deleted).toEqual([300, 300]);
    expect(await collectionsList.totals(db, { merchantId: id })).toEqual(
      await scan('collections', { merchantId: id }),
    );
    expect(await payoutsList.totals(db, { merchantId: id, status: 'success' })).toEqual({
      count: 0,
      amountMinor: 0n,
      feeMinor: 0n,
    });
    expect(await minutesOff()).toBe(0);
    await sumsHold();
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'loses no change made to an older order while its hours close (two connections)',
    async () => {
      const { db } = ctx.database;
      await db.execute(sql`delete from order_minutely`);
      await db.execute(sql`delete from rollup_horizons where rollup = 'order_minute'`);
      horizonMoved(db, 'order_minute');
      // Orders change status back and forth while closes run beside them, a day of hours at a time.
      const changes = Array.from({ length: 40 }, (_, i) =>
        db.execute(
          sql`update payouts set status = ${i % 2 === 0 ? 'failed' : 'processing'}
              where merchant_id = ${m.merchant.id} and id % 40 = ${i} and status in ('failed', 'processing')`,
        ),
      );
      const closes = Array.from({ length: 10 }, () => closeOrderMinutes(db, closedAt));
      await Promise.all([...changes, ...closes]);
      await closeOrderMinutes(db, closedAt);
      expect(await minutesOff()).toBe(0);
      await sumsHold();
    },
  );
});

/** A kind, status and UTC day's count, amount and fee (as text). */
type DayRow = {
  kind: string;
  status: string;
  day: Date | string;
  orders: unknown;
  amount: unknown;
  fee: unknown;
};

describe('the days before the horizon (order_daily)', () => {
  const horizon = async () => {
    const [row] = await queryRows<{ before: Date | string }>(
      ctx.database.db,
      sql`select before from rollup_horizons where rollup = 'order'`,
    );
    return row ? new Date(row.before) : undefined;
  };
  const byDay = (rows: DayRow[]) =>
    rows
      .filter((r) => Number(r.orders) !== 0 || String(r.amount) !== '0' || String(r.fee) !== '0')
      .map((r) => `${r.kind} ${r.status} ${new Date(r.day).toISOString()} ${r.orders} ${r.amount} ${r.fee}`)
      .sort();

  it('hold each UTC day before it as its orders sum up, and it only moves forward', async () => {
    const { db } = ctx.database;
    await foldOrderHourlySlots(db, new Date(START + SPAN_MS + 90 * 60_000));
    // The last UTC midnight at or before the sweep's hour.
    expect(await horizon()).toEqual(new Date(START + SPAN_MS));
    const days = await queryRows<DayRow>(
      db,
      sql`select kind, status, day, orders::text as orders, amount_minor::text as amount, fee_minor::text as fee
          from order_daily where merchant_id = ${m.merchant.id}`,
    );
    const orders = await queryRows<DayRow>(
      db,
      sql`select kind, status, date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') as day,
                 count(*)::text as orders, sum(amount_minor)::text as amount, sum(fee_minor)::text as fee
          from (select 'collection' as kind, status, created_at, amount_minor, fee_minor from collections
                where merchant_id = ${m.merchant.id}
                union all
                select 'payout', status, created_at, amount_minor, fee_minor from payouts
                where merchant_id = ${m.merchant.id}) o
          where created_at < ${new Date(START + SPAN_MS).toISOString()}::timestamptz
          group by 1, 2, 3`,
    );
    expect(byDay(days).length).toBeGreaterThan(12);
    expect(byDay(days)).toEqual(byDay(orders));
    // A sweep with an older clock (another process, a late timer) neither moves it back nor adds a day.
    await foldOrderHourlySlots(db, new Date(START + 24 * 3_600_000));
    expect(await horizon()).toEqual(new Date(START + SPAN_MS));
    expect(
      await queryRows(db, sql`select 1 from order_daily where merchant_id = ${m.merchant.id}`),
    ).toHaveLength(days.length);
  });

  it('are what a sum over whole days reads', async () => {
    const { db } = ctx.database;
    const all = { merchantId: m.merchant.id };
    const week = {
      merchantId: m.merchant.id,
      from: new Date(START - 2 * 24 * 3_600_000 + 5 * 60_000),
      to: new Date(START + 2 * 24 * 3_600_000 + 7 * 60_000),
    };
    const sums = [await payoutsList.totals(db, all), await payoutsList.totals(db, week)];
    // One day row off by 1,000 orders shows in every sum over that day, and in no other.
    await db.execute(
      sql`update order_daily set orders = orders + 1000 where merchant_id = ${m.merchant.id} and kind = 'payout'
            and status = 'failed' and day = ${new Date(START + 24 * 3_600_000).toISOString()}::timestamptz`,
    );
    try {
      expect(await payoutsList.totals(db, all)).toEqual({ ...sums[0], count: sums[0].count + 1000 });
      expect(await payoutsList.totals(db, week)).toEqual({ ...sums[1], count: sums[1].count + 1000 });
      expect(await payoutsList.totals(db, { ...all, from: new Date(START + 2 * 24 * 3_600_000) })).toEqual(
        await scan('payouts', { ...all, from: new Date(START + 2 * 24 * 3_600_000) }),
      );
    } finally {
      await db.execute(
        sql`update order_daily set orders = orders - 1000 where merchant_id = ${m.merchant.id} and kind = 'payout'
              and status = 'failed' and day = ${new Date(START + 24 * 3_600_000).toISOString()}::timestamptz`,
      );
    }
    expect(await payoutsList.totals(db, all)).toEqual(await scan('payouts', all));
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'stay exact for a process that read the horizon before another one moved it',
    async () => {
      const { db } = ctx.database;
      const DAY = 24 * 3_600_000;
      // Orders over the two days after the horizon.
      await db.execute(sql`
        insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                             fee_minor, currency, account_type, payee_name, account_no, created_at)
        select ${m.merchant.id}::bigint, ${m.channel!.id}::bigint, 'sandbox-pay',
               'PL' || ${m.merchant.id}::text || lpad(g::text, 6, '0'), 'PL-' || g, 'gateway', 1000 + g, 60,
               'CNY', 'individual', 'Payee', '6222020200112233',
               ${new Date(START + SPAN_MS).toISOString()}::timestamptz + g * interval '47 minutes'
        from generate_series(0, 59) g`);
      const filters: OrderFilter[] = [
        { merchantId: m.merchant.id },
        { merchantId: m.merchant.id, status: 'failed' },
        {
          merchantId: m.merchant.id,
          from: new Date(START + SPAN_MS - DAY),
          to: new Date(START + SPAN_MS + 2 * DAY),
        },
      ];
      const exact = async () => {
        for (const f of filters) expect(await payoutsList.totals(db, f)).toEqual(await scan('payouts', f));
      };
      // This process reads with the horizon it knows (remembered for a minute).
      await exact();
      const other = await openDatabase({ url: ctx.database.url });
      try {
        // Another process closes those two days, then their orders change and it folds the changes.
        await foldOrderHourlySlots(other.db, new Date(START + SPAN_MS + 2 * DAY + 3_600_000));
        await exact();
        await other.db.execute(
          sql`update payouts set status = 'failed' where merchant_id = ${m.merchant.id} and out_trade_no like 'PL-%' and id % 3 = 0`,
        );
        await exact();
        await foldOrderHourlySlots(other.db, new Date(START + SPAN_MS + 2 * DAY + 3_600_000));
        await exact();
      } finally {
        await other.close();
      }
      // And with the horizon as it is now.
      horizonMoved(db, 'order');
      await exact();
    },
  );
});

describe('folding many hours and busy rows', () => {
  const rollupSums = async (merchantId: number) => {
    const [row] = await queryRows<{ rows: number; orders: string; amount: string; fee: string }>(
      ctx.database.db,
      sql`select count(*)::int as rows, sum(orders)::text as orders, sum(amount_minor)::text as amount,
                 sum(fee_minor)::text as fee
          from order_hourly where merchant_id = ${merchantId}`,
    );
    return row;
  };

  it('refuses a write to slot 0 from anything but the fold (its day rows would no longer add up)', async () => {
    const { db } = ctx.database;
    const refusal = (query: ReturnType<typeof sql>) =>
      db.execute(query).then(
        () => 'written',
        (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
      );
    expect(
      await refusal(sql`
        insert into order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
        values ('payout', ${m.merchant.id}, 'success', '2025-07-01 10:00:00+00', 0, 1, 100, 1)`),
    ).toMatch(/Only the housekeeping fold writes slot 0/);
    const before = await rollupSums(m.merchant.id);
    expect(
      await refusal(
        sql`update order_hourly set orders = orders + 1 where merchant_id = ${m.merchant.id} and slot = 0`,
      ),
    ).toMatch(/Only the housekeeping fold writes slot 0/);
    expect(await rollupSums(m.merchant.id)).toEqual(before);
    // The other slots are the triggers' and take any change.
    expect(
      await refusal(sql`
        insert into order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
        values ('payout', ${m.merchant.id}, 'success', '2025-07-01 10:00:00+00', 5, 0, 0, 0)`),
    ).toBe('written');
    await db.execute(
      sql`delete from order_hourly where merchant_id = ${m.merchant.id} and slot = 5 and hour = '2025-07-01 10:00:00+00'`,
    );
  });

  it('folds more slot rows than one batch takes, in several, to the same sums', async () => {
    const lone = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
    // 30,000 slot rows (as a busy year would leave): 16 slots of 1,875 hours, two statuses.
    await ctx.database.db.execute(sql`
      insert into order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
      select 'collection', ${lone.merchant.id}::bigint, case when g % 2 = 0 then 'paid' else 'failed' end,
             timestamptz '2025-01-01 00:00:00+00' + (g / 16) * interval '1 hour', 1 + g % 16, 1 + g % 3, 100 * g, g
      from generate_series(0, 29999) g`);
    const before = await rollupSums(lone.merchant.id);
    expect(before.rows).toBe(30_000);
    expect(await foldOrderHourlySlots(ctx.database.db, new Date('2026-01-01T00:00:00Z'))).toBe(30_000);
    const after = await rollupSums(lone.merchant.id);
    expect(after.rows).toBe(3_750); // an hour, two statuses
    expect(after).toEqual({ ...before, rows: 3_750 });
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'skips a slot row an order holds rather than wait on it, and folds it at the next sweep',
    async () => {
      const busy = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
      // An hour folded before (slot 0, written as the fold writes it), and a later change in slot 3.
      await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local paydesk.folding = 'on'`);
        await tx.execute(sql`
          insert into order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
          values ('payout', ${busy.merchant.id}, 'success', '2025-06-01 10:00:00+00', 0, 2, 500, 10),
                 ('payout', ${busy.merchant.id}, 'success', '2025-06-01 10:00:00+00', 3, 1, 300, 5)`);
      });
      const before = await rollupSums(busy.merchant.id);
      // A late change to an order of that hour, not committed yet, holds its slot's row.
      const order = new pg.Client({ connectionString: ctx.database.url });
      await order.connect();
      try {
        await order.query('begin');
        await order.query(
          `update order_hourly set orders = orders + 1, amount_minor = amount_minor + 7
           where merchant_id = $1 and slot = 3`,
          [busy.merchant.id],
        );
        const started = performance.now();
        expect(await foldOrderHourlySlots(ctx.database.db, new Date('2026-01-01T00:00:00Z'))).toBe(0);
        expect(performance.now() - started).toBeLessThan(30_000);
        expect((await rollupSums(busy.merchant.id)).rows).toBe(2);
        await order.query('commit');
      } finally {
        await order.end();
      }
      expect(await foldOrderHourlySlots(ctx.database.db, new Date('2026-01-01T00:00:00Z'))).toBe(1);
      expect(await rollupSums(busy.merchant.id)).toEqual({
        rows: 1,
        orders: String(Number(before.orders) + 1),
        amount: String(Number(before.amount) + 7),
        fee: before.fee,
      });
    },
  );
});
