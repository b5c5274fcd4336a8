import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './columns.ts';

/**
 * The lists' sums without reading the orders (DESIGN 8): per kind (collection, payout), merchant, status and
 * UTC hour of creation, the count, amount and fee of the orders. Kept by triggers on collections and
 * payouts in the transaction of each insert and status change (migration 0008), so it cannot drift from
 * the orders. Each hour is spread over 16 slots (1 + id % 16): concurrent orders of one merchant rarely
 * wait on the same row. Once the hour is over, the housekeeping job folds its slots into slot 0, so that
 * the sums read one row per status and hour (foldOrderHourlySlots). Slot 0 is the job's alone (migration
 * 0017): the triggers never write it, which is what keeps order_daily exact.
 */
export const orderHourly = pgTable(
  'order_hourly',
  {
    kind: text('kind').notNull(),
    merchantId: merchantIdColumn(),
    status: text('status').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    slot: smallint('slot').notNull(),
    orders: bigint('orders', { mode: 'bigint' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.kind, t.status, t.hour, t.slot] }),
    // Sums of every status over a range of hours (no status filter, or a date range): without it PostgreSQL
    // reads the whole table (bench lists at 10 M orders: 64-103 ms, 3 ms with it).
    index('order_hourly_merchant_kind_hour_idx').on(t.merchantId, t.kind, t.hour),
    // The rows the housekeeping job has still to fold into slot 0 (foldOrderHourlySlots): the current
    // hours', and changes to older orders, which a sum over days also reads (orderTotals' pending).
    index('order_hourly_unfolded_idx')
      .on(t.merchantId, t.kind, t.hour)
      .where(sql`${t.slot} <> 0`),
    // The same rows by status, for a status filter's sums: planned without their values (the statement is
    // named), PostgreSQL otherwise read them through the primary key, every hour of the status since the
    // first order, to keep the few unfolded ones (bench lists at 10 M orders: 2,140 rows, 1.0-1.6 ms).
    index('order_hourly_unfolded_status_idx')
      .on(t.merchantId, t.kind, t.status, t.hour)
      .where(sql`${t.slot} <> 0`),
    check('order_hourly_kind_valid', sql`${t.kind} in ('collection', 'payout')`),
  ],
);

/**
 * order_hourly by UTC day, for the days before the horizon (rollup_horizons, 'order'): a sum over a long
 * range reads a row per status and day instead of one per hour (90 days of a merchant: 17,000 hour rows).
 * Only the housekeeping job writes it, from slot 0 of order_hourly and together with it: a day row is
 * always the sum of its hours' slot-0 rows, and a change to an older order waits in a slot (1-16) of its
 * hour until the next sweep moves it into both (foldOrderHourlySlots). Readers add those waiting slots.
 */
export const orderDaily = pgTable(
  'order_daily',
  {
    kind: text('kind').notNull(),
    merchantId: merchantIdColumn(),
    status: text('status').notNull(),
    day: timestamp('day', { withTimezone: true }).notNull(),
    orders: bigint('orders', { mode: 'bigint' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.kind, t.status, t.day] }),
    index('order_daily_merchant_kind_day_idx').on(t.merchantId, t.kind, t.day),
    check('order_daily_kind_valid', sql`${t.kind} in ('collection', 'payout')`),
  ],
);

/**
 * order_hourly by UTC minute, for the hours before its horizon (rollup_horizons, 'order_minute'): a range
 * cut to the minute sums the partial hours at its edges from these rows, not from the orders (bench lists
 * at 10 M orders: 2,623 orders at the edges of an afternoon, 0.35 ms of the sums). The housekeeping job
 * writes an hour's rows from its orders once no transaction that began before its end is still open
 * (closeOrderMinutes); a later change to an order of a closed hour adds itself to them in its own
 * transaction (the trigger of migration 0024). Rows may be left at zero.
 */
export const orderMinutely = pgTable(
  'order_minutely',
  {
    kind: text('kind').notNull(),
    merchantId: merchantIdColumn(),
    status: text('status').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    orders: bigint('orders', { mode: 'bigint' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.kind, t.status, t.minute] }),
    index('order_minutely_merchant_kind_minute_idx').on(t.merchantId, t.kind, t.minute),
    check('order_minutely_kind_valid', sql`${t.kind} in ('collection', 'payout')`),
  ],
);

/**
 * How far each daily rollup reaches: its day rows cover every UTC day before `before` (none while absent).
 * Only moves forward, so a reader that read it earlier still reads exact sums.
 */
export const rollupHorizons = pgTable('rollup_horizons', {
  rollup: text('rollup').primaryKey(),
  before: timestamp('before', { withTimezone: true }).notNull(),
});

/**
 * The same for the lists with two more sums and another filter (DESIGN 8: sums from rollups, never a scan
 * of the matching rows): per list, merchant, status, facet (the network of a top-up or withdrawal, the
 * channel of a settlement: the list's other filter) and UTC hour, the row count and up to three sums:
 * - recharge: amount, credited (0 until credited);
 * - withdrawal: amount and fee in USDT, amount + fee in the merchant's currency;
 * - settlement: gross, fee, net.
 * Kept by a trigger on each table in the transaction of each change (migration 0015). These rows are few
 * per merchant and hour, so an hour is one row (no slots).
 */
export const listHourly = pgTable(
  'list_hourly',
  {
    list: text('list').notNull(),
    merchantId: merchantIdColumn(),
    status: text('status').notNull(),
    facet: text('facet').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    rows: bigint('rows', { mode: 'bigint' }).notNull(),
    a: bigint('a', { mode: 'bigint' }).notNull(),
    b: bigint('b', { mode: 'bigint' }).notNull(),
    c: bigint('c', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.list, t.status, t.facet, t.hour] }),
    index('list_hourly_merchant_list_hour_idx').on(t.merchantId, t.list, t.hour),
    check('list_hourly_list_valid', sql`${t.list} in ('recharge', 'withdrawal', 'settlement', 'refund')`),
  ],
);

/**
 * list_hourly by UTC day, kept by the same function in the same statement (list_hourly_add, migration
 * 0019): a sum over whole days reads a row per status, facet and day. These lists change a few times an
 * hour at most, so the extra row each change writes costs nothing that matters, and every day is always
 * complete (no horizon).
 */
export const listDaily = pgTable(
  'list_daily',
  {
    list: text('list').notNull(),
    merchantId: merchantIdColumn(),
    status: text('status').notNull(),
    facet: text('facet').notNull(),
    day: timestamp('day', { withTimezone: true }).notNull(),
    rows: bigint('rows', { mode: 'bigint' }).notNull(),
    a: bigint('a', { mode: 'bigint' }).notNull(),
    b: bigint('b', { mode: 'bigint' }).notNull(),
    c: bigint('c', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.list, t.status, t.facet, t.day] }),
    index('list_daily_merchant_list_day_idx').on(t.merchantId, t.list, t.day),
    check('list_daily_list_valid', sql`${t.list} in ('recharge', 'withdrawal', 'settlement', 'refund')`),
  ],
);
