import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { CURRENCIES } from '@paydesk/shared';
import { REFUND_STATUSES } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { users } from './merchants.ts';
import { channelIdColumn, collections } from './collections.ts';
import { idColumn, merchantIdColumn } from './columns.ts';
import { quotedList } from './sql-lists.ts';

/**
 * A refund of a paid collection (DESIGN 14). Its merchant row is the order's, so it is of the order's mode.
 * The order's `refunded_minor` holds what its refunds in processing or succeeded took back: the one row
 * every refund of an order updates conditionally, so racing refunds never pass the order's amount.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => collections.id),
    /** The order's numbers, copied at creation (they never change): the list reads and filters by them. */
    tradeNo: text('trade_no').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    channelId: channelIdColumn(),
    channelCode: text('channel_code').notNull(),
    refundNo: text('refund_no').notNull().unique(),
    outRefundNo: text('out_refund_no').notNull(),
    /** console or gateway */
    source: text('source').notNull(),
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }).references(() => users.id),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('processing'),
    reason: text('reason'),
    failureReason: text('failure_reason'),
    /** The channel's own number for the refund, once it gave one. */
    channelRef: text('channel_ref'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('refunds_merchant_out_refund_no_key').on(t.merchantId, t.outRefundNo),
    index('refunds_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('refunds_merchant_status_created_idx').on(t.merchantId, t.status, t.createdAt.desc(), t.id.desc()),
    index('refunds_collection_idx').on(t.collectionId),
    index('refunds_channel_idx').on(t.channelId),
    // Only the console's refunds have a user: the gateway's (most of them) write no entry here.
    index('refunds_user_idx')
      .on(t.createdByUserId)
      .where(sql`${t.createdByUserId} is not null`),
    index('refunds_processing_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'processing'`),
    check('refunds_status_valid', sql`${t.status} in (${quotedList(REFUND_STATUSES)})`),
    check('refunds_source_valid', sql`${t.source} in ('console', 'gateway')`),
    check('refunds_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    check('refunds_amount_valid', sql`${t.amountMinor} > 0`),
  ],
);
