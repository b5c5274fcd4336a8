import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { merchants } from './merchants.ts';

// Written only by modules/ledger (DESIGN section 3); a lint rule refuses writes from anywhere else.

export const balances = pgTable(
  'balances',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .primaryKey()
      .references(() => merchants.id),
    availableMinor: bigint('available_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    lockedMinor: bigint('locked_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('balances_available_nonneg', sql`${t.availableMinor} >= 0`),
    check('balances_locked_nonneg', sql`${t.lockedMinor} >= 0`),
  ],
);

export const holds = pgTable(
  'holds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** open -> captured | released */
    status: text('status').notNull().default('open'),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check('holds_amount_positive', sql`${t.amountMinor} > 0`),
    check('holds_status_valid', sql`${t.status} in ('open', 'captured', 'released')`),
    index('holds_merchant_open_idx')
      .on(t.merchantId)
      .where(sql`${t.status} = 'open'`),
  ],
);

export const fundFlows = pgTable(
  'fund_flows',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    type: text('type').notNull(),
    /** Signed change to available, minor units. */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    availableAfterMinor: bigint('available_after_minor', { mode: 'bigint' }).notNull(),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    /** The reference number a merchant searches by (order, payout, top-up or operator action number). */
    refNo: text('ref_no'),
    holdId: bigint('hold_id', { mode: 'number' }).references(() => holds.id),
    note: text('note'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('fund_flows_merchant_time_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('fund_flows_merchant_type_time_idx').on(t.merchantId, t.type, t.createdAt.desc(), t.id.desc()),
    index('fund_flows_merchant_ref_no_idx').on(t.merchantId, t.refNo),
  ],
);
