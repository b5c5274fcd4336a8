import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { FUND_FLOW_TYPES, HOLD_TYPES } from '@paydesk/shared/funds/funds.schemas.ts';
import { merchants } from './merchants.ts';

const quotedList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

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
    /** The fund flow type of the entry that opened it: payout_deduction, withdrawal or funds_frozen. */
    type: text('type').notNull(),
    /** open -> captured | released */
    status: text('status').notNull().default('open'),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    refNo: text('ref_no'),
    note: text('note'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** The key of the capture or release that closed it: repeating that one replays, any other is refused. */
    closeKey: text('close_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check('holds_amount_positive', sql`${t.amountMinor} > 0`),
    check('holds_status_valid', sql`${t.status} in ('open', 'captured', 'released')`),
    check('holds_type_valid', sql`${t.type} in (${quotedList(HOLD_TYPES)})`),
    check('holds_closed_consistent', sql`(${t.status} = 'open') = (${t.closeKey} is null)`),
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
    check('fund_flows_type_valid', sql`${t.type} in (${quotedList(FUND_FLOW_TYPES)})`),
    check('fund_flows_amount_nonzero', sql`${t.amountMinor} <> 0`),
    index('fund_flows_merchant_time_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('fund_flows_merchant_type_time_idx').on(t.merchantId, t.type, t.createdAt.desc(), t.id.desc()),
    index('fund_flows_merchant_ref_no_idx').on(t.merchantId, t.refNo),
  ],
);

/**
 * Money in, money out and entry count per merchant, type and UTC hour, kept by the ledger in the same
 * statement as each entry, so a list's sums and total over any filter read a few rows instead of them all.
 */
export const fundFlowHourly = pgTable(
  'fund_flow_hourly',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    type: text('type').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    inMinor: bigint('in_minor', { mode: 'bigint' }).notNull(),
    outMinor: bigint('out_minor', { mode: 'bigint' }).notNull(),
    entries: bigint('entries', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.type, t.hour] }),
    index('fund_flow_hourly_merchant_hour_idx').on(t.merchantId, t.hour),
  ],
);
