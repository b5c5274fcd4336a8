import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CURRENCIES } from '@paydesk/shared';
import { WALLET_NETWORKS, WITHDRAWAL_STATUSES } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { holds } from './ledger.ts';
import { users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';
import { idColumn, merchantIdColumn } from './columns.ts';

// Withdrawals (DESIGN sections 3 and 4): USDT to a merchant's wallet, held in the merchant's currency at
// the rate frozen on the request, reviewed and paid (or rejected) by an operator.

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    withdrawalNo: text('withdrawal_no').notNull().unique(),
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }).references(() => users.id),
    status: text('status').notNull().default('pending_review'),
    network: text('network').notNull(),
    address: text('address').notNull(),
    /** USDT, 6 decimals. */
    amountUsdtMinor: bigint('amount_usdt_minor', { mode: 'bigint' }).notNull(),
    feeUsdtMinor: bigint('fee_usdt_minor', { mode: 'bigint' }).notNull(),
    /** One of the day's free withdrawals (its fee is zero). */
    isFree: boolean('is_free').notNull().default(false),
    /** The merchant's currency per USDT, a decimal string, frozen at the request. */
    rate: text('rate').notNull(),
    localCurrency: text('local_currency').notNull(),
    /** amount x rate and fee x rate, each rounded up to the local minor unit; their sum is held. */
    amountLocalMinor: bigint('amount_local_minor', { mode: 'bigint' }).notNull(),
    feeLocalMinor: bigint('fee_local_minor', { mode: 'bigint' }).notNull(),
    holdId: bigint('hold_id', { mode: 'number' }).references(() => holds.id),
    txHash: text('tx_hash'),
    rejectReason: text('reject_reason'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: text('approved_by'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: text('paid_by'),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectedBy: text('rejected_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('withdrawals_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('withdrawals_merchant_status_created_idx').on(
      t.merchantId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('withdrawals_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('withdrawals_hold_idx').on(t.holdId),
    index('withdrawals_user_idx').on(t.createdByUserId),
    // One transaction on chain pays one withdrawal.
    uniqueIndex('withdrawals_tx_hash_key')
      .on(t.txHash)
      .where(sql`${t.txHash} is not null`),
    check('withdrawals_status_valid', sql`${t.status} in (${quotedList(WITHDRAWAL_STATUSES)})`),
    check('withdrawals_network_valid', sql`${t.network} in (${quotedList(WALLET_NETWORKS)})`),
    check(
      'withdrawals_local_currency_valid',
      sql`${t.localCurrency} in (${quotedList(Object.keys(CURRENCIES))})`,
    ),
    check(
      'withdrawals_amounts_valid',
      sql`${t.amountUsdtMinor} > 0 and ${t.feeUsdtMinor} >= 0 and ${t.amountLocalMinor} > 0 and ${t.feeLocalMinor} >= 0`,
    ),
    check(
      'withdrawals_paid_has_hash',
      sql`(${t.status} = 'paid') = (${t.txHash} is not null and ${t.paidAt} is not null)`,
    ),
    check(
      'withdrawals_rejected_has_reason',
      sql`(${t.status} = 'rejected') = (${t.rejectReason} is not null and ${t.rejectedAt} is not null)`,
    ),
  ],
);
