import { sql } from 'drizzle-orm';
import { bigint, check, date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { merchantIdColumn } from './columns.ts';

/**
 * A merchant's finished days (DESIGN section 3, daily reports), computed once from its fund flows and
 * kept: one row per merchant, time zone and local day. Keyed by the zone too, so a merchant that moves to
 * another zone gets fresh days rather than overlapping ones. Today is never kept (it is still moving).
 * The money columns are the day's fund flows summed by type; the balance is the available balance.
 */
export const dailyReports = pgTable(
  'daily_reports',
  {
    merchantId: merchantIdColumn(),
    timezone: text('timezone').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** The day's [starts_at, ends_at) in UTC. */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    openingMinor: bigint('opening_minor', { mode: 'bigint' }).notNull(),
    closingMinor: bigint('closing_minor', { mode: 'bigint' }).notNull(),
    /** Net settlements credited (the collection_settlement entries), their fee and order count. */
    collectionNetMinor: bigint('collection_net_minor', { mode: 'bigint' }).notNull(),
    collectionFeeMinor: bigint('collection_fee_minor', { mode: 'bigint' }).notNull(),
    collectionCount: integer('collection_count').notNull(),
    /** Payout deductions (amount + fee, negative), the fee part and the count. */
    payoutDeductedMinor: bigint('payout_deducted_minor', { mode: 'bigint' }).notNull(),
    payoutFeeMinor: bigint('payout_fee_minor', { mode: 'bigint' }).notNull(),
    payoutCount: integer('payout_count').notNull(),
    refundsMinor: bigint('refunds_minor', { mode: 'bigint' }).notNull(),
    /** Refunds of collections (DESIGN 14) less those that failed and came back: signed (money out is negative). */
    collectionRefundsMinor: bigint('collection_refunds_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    topUpsMinor: bigint('top_ups_minor', { mode: 'bigint' }).notNull(),
    withdrawalsMinor: bigint('withdrawals_minor', { mode: 'bigint' }).notNull(),
    transfersMinor: bigint('transfers_minor', { mode: 'bigint' }).notNull(),
    freezesMinor: bigint('freezes_minor', { mode: 'bigint' }).notNull(),
    entries: integer('entries').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.timezone, t.day] }),
    check('daily_reports_range', sql`${t.startsAt} < ${t.endsAt}`),
    // Opening + the day's entries = closing, refused by the database otherwise.
    check(
      'daily_reports_balanced',
      sql`${t.closingMinor} = ${t.openingMinor} + ${t.collectionNetMinor} + ${t.payoutDeductedMinor}
          + ${t.refundsMinor} + ${t.collectionRefundsMinor} + ${t.topUpsMinor} + ${t.withdrawalsMinor} + ${t.transfersMinor} + ${t.freezesMinor}`,
    ),
  ],
);
