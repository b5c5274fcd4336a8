import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { CURRENCIES } from '@paydesk/shared';
import { ACCOUNT_TYPES, PAYOUT_STATUSES } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { orderHeadColumns, orderKeys } from './collections.ts';
import { merchants, users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';
import { merchantIdColumn } from './columns.ts';

// Send money (DESIGN sections 3, 4 and 6): payouts and the gateway's idempotency keys.

export const payouts = pgTable(
  'payouts',
  {
    ...orderHeadColumns(),
    /** console or gateway */
    source: text('source').notNull(),
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }).references(() => users.id),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('pending'),
    accountType: text('account_type').notNull(),
    bankCode: text('bank_code'),
    bankName: text('bank_name'),
    branchName: text('branch_name'),
    ifsc: text('ifsc'),
    cpfCnpj: text('cpf_cnpj'),
    payeeName: text('payee_name').notNull(),
    accountNo: text('account_no').notNull(),
    notifyUrl: text('notify_url'),
    note: text('note'),
    failureReason: text('failure_reason'),
    /** Routed by the merchant's routing table (failover may move it), or forced by a named `channel`. */
    routed: boolean('routed').notNull().default(false),
    /** The channel's own number for the payout (the spec's outNo, "associated order number"), once it took it. */
    channelRef: text('channel_ref'),
    processingAt: timestamp('processing_at', { withTimezone: true }),
    /** success, failed, cancelled or rejected. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Who approved or rejected a payout that waited for approval (DESIGN 16), and when. */
    reviewedByUserId: bigint('reviewed_by_user_id', { mode: 'number' }).references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...orderKeys('payouts', t),
    index('payouts_merchant_account_idx').on(t.merchantId, t.accountNo, t.createdAt),
    index('payouts_merchant_finished_idx')
      .on(t.merchantId, t.finishedAt)
      .where(sql`${t.finishedAt} is not null`),
    index('payouts_channel_idx').on(t.channelId),
    // The housekeeping sweep's payouts still in flight at their provider (channels' resumeStuck).
    index('payouts_in_flight_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('pending', 'processing')`),
    // Only the console's payouts have a user: the gateway's (most of them) write no entry here.
    index('payouts_user_idx')
      .on(t.createdByUserId)
      .where(sql`${t.createdByUserId} is not null`),
    // The Dashboard's "waiting for approval" figure and the approvers' list read only these rows.
    // Only the payouts that waited for approval have a reviewer: the index holds those alone.
    index('payouts_reviewer_idx')
      .on(t.reviewedByUserId)
      .where(sql`${t.reviewedByUserId} is not null`),
    index('payouts_merchant_pending_approval_idx')
      .on(t.merchantId)
      .where(sql`${t.status} = 'pending_approval'`),
    check('payouts_status_valid', sql`${t.status} in (${quotedList(PAYOUT_STATUSES)})`),
    check('payouts_account_type_valid', sql`${t.accountType} in (${quotedList(ACCOUNT_TYPES)})`),
    check('payouts_source_valid', sql`${t.source} in ('console', 'gateway')`),
    check('payouts_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    check('payouts_amounts_valid', sql`${t.amountMinor} > 0 and ${t.feeMinor} >= 0`),
  ],
);

/**
 * Payout approval (DESIGN 16), per merchant row (so per mode): a console payout whose amount is at or
 * above `console_threshold_minor` waits for a second user's approval, and a gateway payout at or above
 * `gateway_threshold_minor`; 0 is off. No row: both off.
 */
export const payoutApprovalSettings = pgTable(
  'payout_approval_settings',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .primaryKey()
      .references(() => merchants.id),
    consoleThresholdMinor: bigint('console_threshold_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    gatewayThresholdMinor: bigint('gateway_threshold_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    updatedByUserId: bigint('updated_by_user_id', { mode: 'number' }).references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Every foreign key has an index (schema-constraints.test.ts): a user's row is found without a scan.
    index('payout_approval_settings_user_idx').on(t.updatedByUserId),
    check(
      'payout_approval_settings_not_negative',
      sql`${t.consoleThresholdMinor} >= 0 and ${t.gatewayThresholdMinor} >= 0`,
    ),
  ],
);

/** Gateway Idempotency-Keys (DESIGN 6): 24 h per merchant; the first answer is kept and replayed. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: merchantIdColumn(),
    key: text('key').notNull(),
    /** What it was used for, and the SHA-256 of the body: the same key with another body is refused. */
    scope: text('scope').notNull(),
    requestHash: text('request_hash').notNull(),
    /** done: the answer is stored in the payout's own transaction (in_flight: rows of earlier versions). */
    status: text('status').notNull().default('in_flight'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_status_valid', sql`${t.status} in ('in_flight', 'done')`),
  ],
);
