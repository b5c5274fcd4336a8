import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channelIdColumn } from './collections.ts';

// The demo's stand-ins for third parties (DESIGN 13; modules/sandbox/razorpay-stand-in.ts): what the
// Razorpay account behind a channel holds, kept as Razorpay answers it, so that a status query after a
// restart, or from another process, finds what the payer did. Only the sandbox (development, tests and
// the demo) writes here.

/** A payment link of a Razorpay channel's stand-in account, as its API answers it (`body`). */
export const razorpayStandInLinks = pgTable(
  'razorpay_stand_in_links',
  {
    id: text('id').primaryKey(),
    channelId: channelIdColumn(),
    referenceId: text('reference_id').notNull(),
    status: text('status').notNull(),
    body: jsonb('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Razorpay refuses a second link with the same reference_id.
    uniqueIndex('razorpay_stand_in_links_reference_key').on(t.channelId, t.referenceId),
    check(
      'razorpay_stand_in_links_status_valid',
      sql`${t.status} in ('created', 'paid', 'expired', 'cancelled')`,
    ),
  ],
);

/**
 * A refund of a payment of a Razorpay channel's stand-in account, as its API answers it (`body`), with the
 * X-Refund-Idempotency key it was made with (the same key answers this refund again).
 */
export const razorpayStandInRefunds = pgTable(
  'razorpay_stand_in_refunds',
  {
    id: text('id').primaryKey(),
    channelId: channelIdColumn(),
    paymentId: text('payment_id').notNull(),
    idempotencyKey: text('idempotency_key'),
    status: text('status').notNull(),
    body: jsonb('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('razorpay_stand_in_refunds_idempotency_key').on(t.channelId, t.idempotencyKey),
    index('razorpay_stand_in_refunds_payment_idx').on(t.channelId, t.paymentId),
    check('razorpay_stand_in_refunds_status_valid', sql`${t.status} in ('pending', 'processed', 'failed')`),
  ],
);
