import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { CURRENCIES } from '@paydesk/shared';
import {
  TOP_UP_NETWORKS,
  TOP_UP_STATUSES,
  SCREENSHOT_TYPES,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';
import { idColumn, merchantIdColumn } from './columns.ts';

// Top-ups (DESIGN sections 3, 4 and 9): pending_review -> approved (credited) | rejected (with a reason).

export const topUps = pgTable(
  'recharges',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    topUpNo: text('recharge_no').notNull().unique(),
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }).references(() => users.id),
    network: text('network').notNull(),
    /** The platform's deposit address shown to the merchant when it sent the USDT. */
    depositAddress: text('deposit_address').notNull(),
    /** What the merchant says it sent, in USDT minor units (6 decimals). */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** The merchant's currency, which is credited. */
    currency: text('currency').notNull(),
    status: text('status').notNull().default('pending_review'),
    /** The stored screenshot: a generated key (never the client's file name), its type and size. */
    screenshotKey: text('screenshot_key').notNull(),
    screenshotType: text('screenshot_type').notNull(),
    screenshotBytes: integer('screenshot_bytes').notNull(),
    /** The operator's decision: the USDT received, the rates, and what they gave. */
    receivedMinor: bigint('received_minor', { mode: 'bigint' }),
    rate: text('rate'),
    usdRate: text('usd_rate'),
    creditedMinor: bigint('credited_minor', { mode: 'bigint' }),
    creditedUsdMinor: bigint('credited_usd_minor', { mode: 'bigint' }),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewReason: text('review_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('recharges_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('recharges_merchant_status_created_idx').on(
      t.merchantId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('recharges_status_created_idx').on(t.status, t.createdAt.desc()),
    index('recharges_user_idx').on(t.createdByUserId),
    check('recharges_status_valid', sql`${t.status} in (${quotedList(TOP_UP_STATUSES)})`),
    check('recharges_network_valid', sql`${t.network} in (${quotedList(TOP_UP_NETWORKS)})`),
    check('recharges_screenshot_type_valid', sql`${t.screenshotType} in (${quotedList(SCREENSHOT_TYPES)})`),
    check('recharges_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    check('recharges_amount_positive', sql`${t.amountMinor} > 0`),
    // A decision is whole: approved carries what was credited, a decision carries who, when and why.
    check(
      'recharges_approved_complete',
      sql`${t.status} <> 'approved' or (${t.receivedMinor} > 0 and ${t.rate} is not null and ${t.creditedMinor} >= 0 and ${t.creditedUsdMinor} >= 0)`,
    ),
    check(
      'recharges_reviewed_complete',
      sql`${t.status} = 'pending_review' or (${t.reviewedBy} is not null and ${t.reviewedAt} is not null and ${t.reviewReason} is not null)`,
    ),
  ],
);
