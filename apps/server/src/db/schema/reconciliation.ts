import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  PAYMENT_PROBLEMS,
  RECEIVED_PAYMENT_STATUSES,
  RESOLUTION_ACTIONS,
  STATEMENT_FORMATS,
} from '@paydesk/shared/channels/reconciliation.schemas.ts';
import { channelIdColumn, collections } from './collections.ts';
import { idColumn, merchantIdColumn } from './columns.ts';
import { journalEntries } from './ledger.ts';
import { quotedList } from './sql-lists.ts';

// Money received into the platform's own accounts (DESIGN 13): each bank line once, by the bank's
// transaction id, whether a notification or a statement brought it; the statements imported; and the
// reconciliation of a channel's day, with each difference an operator resolved.

/** One statement file imported for a channel and a day (the same file again adds no line). */
export const statementImports = pgTable(
  'statement_imports',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    channelId: channelIdColumn(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    format: text('format').notNull(),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    lineCount: bigint('line_count', { mode: 'number' }).notNull(),
    /** Lines this import brought that no notification or earlier import had. */
    newLines: bigint('new_lines', { mode: 'number' }).notNull(),
    importedBy: text('imported_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('statement_imports_channel_day_idx').on(t.channelId, t.businessDate),
    index('statement_imports_merchant_idx').on(t.merchantId, t.id),
    check('statement_imports_format_valid', sql`${t.format} in (${quotedList(STATEMENT_FORMATS)})`),
  ],
);

/**
 * A payment the bank says it received on a channel's account: applied once by (channel, the bank's
 * transaction id). matched: it paid its order; unknown: no order has its reference; review: an order has
 * it but the amount differs, the order could no longer be paid, or it was paid already; resolved: an
 * operator decided (reconciliation_resolutions).
 */
export const receivedPayments = pgTable(
  'received_payments',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    channelId: channelIdColumn(),
    txnId: text('txn_id').notNull(),
    /** What the payer wrote; our trade_no is found in it. */
    reference: text('reference').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    /** The channel's day it belongs to: the statement's, or the merchant-local day a notification paid it. */
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    payer: text('payer'),
    /** When a notification reported it; when a statement listed it. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    statementImportId: bigint('statement_import_id', { mode: 'number' }).references(
      () => statementImports.id,
    ),
    /** The order its reference names, if any. */
    collectionId: bigint('collection_id', { mode: 'number' }).references(() => collections.id),
    status: text('status').notNull(),
    problem: text('problem'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('received_payments_channel_txn_key').on(t.channelId, t.txnId),
    index('received_payments_channel_day_idx').on(t.channelId, t.businessDate),
    index('received_payments_merchant_idx').on(t.merchantId, t.id),
    index('received_payments_collection_idx').on(t.collectionId),
    index('received_payments_import_idx').on(t.statementImportId),
    check('received_payments_status_valid', sql`${t.status} in (${quotedList(RECEIVED_PAYMENT_STATUSES)})`),
    check(
      'received_payments_problem_valid',
      sql`(${t.status} <> 'review' or ${t.problem} is not null)
          and (${t.problem} is null or ${t.status} in ('review', 'resolved'))`,
    ),
    check(
      'received_payments_problem_known',
      sql`${t.problem} is null or ${t.problem} in (${quotedList(PAYMENT_PROBLEMS)})`,
    ),
    check('received_payments_amount_valid', sql`${t.amountMinor} > 0`),
  ],
);

/** A channel's day: open while differences are left, closed by an operator once none is. */
export const reconciliationDays = pgTable(
  'reconciliation_days',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    channelId: channelIdColumn(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    closedBy: text('closed_by').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    unique('reconciliation_days_channel_day_key').on(t.channelId, t.businessDate),
    index('reconciliation_days_merchant_idx').on(t.merchantId, t.id),
  ],
);

/**
 * An operator's decision on one difference: a payment (unknown, or in review) or an order of ours the
 * statement does not list. mark_paid pays the order; refund_to_payer records that the money went back by
 * the bank's own means; ledger_adjustment moves the difference through the ledger (its entry).
 */
export const reconciliationResolutions = pgTable(
  'reconciliation_resolutions',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    channelId: channelIdColumn(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => receivedPayments.id),
    collectionId: bigint('collection_id', { mode: 'number' }).references(() => collections.id),
    action: text('action').notNull(),
    reason: text('reason').notNull(),
    /** Signed minor units a ledger adjustment moved (in: positive). */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }),
    entryId: bigint('entry_id', { mode: 'number' }).references(() => journalEntries.id),
    resolvedBy: text('resolved_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A difference is resolved once.
    uniqueIndex('reconciliation_resolutions_payment_key')
      .on(t.paymentId)
      .where(sql`${t.paymentId} is not null`),
    uniqueIndex('reconciliation_resolutions_missing_key')
      .on(t.collectionId)
      .where(sql`${t.paymentId} is null`),
    index('reconciliation_resolutions_channel_day_idx').on(t.channelId, t.businessDate),
    index('reconciliation_resolutions_merchant_idx').on(t.merchantId, t.id),
    index('reconciliation_resolutions_collection_idx').on(t.collectionId),
    index('reconciliation_resolutions_entry_idx').on(t.entryId),
    check('reconciliation_resolutions_action_valid', sql`${t.action} in (${quotedList(RESOLUTION_ACTIONS)})`),
    check(
      'reconciliation_resolutions_subject',
      sql`${t.paymentId} is not null or ${t.collectionId} is not null`,
    ),
  ],
);
