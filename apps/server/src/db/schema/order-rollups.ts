import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { merchants } from './merchants.ts';

/**
 * The lists' sums without reading the orders (DESIGN 8): per kind (collection, payout), merchant, status and
 * UTC hour of creation, the count, amount and fee of the orders. Kept by triggers on collections and
 * payouts in the transaction of each insert and status change (migration 0008), so it cannot drift from
 * the orders. Each hour is spread over 16 slots (id % 16): concurrent orders of one merchant rarely wait
 * on the same row.
 */
export const orderHourly = pgTable(
  'order_hourly',
  {
    kind: text('kind').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
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
    check('order_hourly_kind_valid', sql`${t.kind} in ('collection', 'payout')`),
  ],
);
