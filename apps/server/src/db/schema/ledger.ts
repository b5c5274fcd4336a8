import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CURRENCIES } from '@paydesk/shared';
import {
  FUND_FLOW_TYPES,
  HOLD_TYPES,
  JOURNAL_ENTRY_TYPES,
  LEDGER_ACCOUNT_KINDS,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { MODES } from '@paydesk/shared/modes/modes.schemas.ts';
import { merchants } from './merchants.ts';
import { quotedList } from './sql-lists.ts';
import { idColumn, merchantIdColumn } from './columns.ts';

// Written only by modules/ledger (DESIGN section 3); a lint rule refuses writes from anywhere else.

/**
 * The double-entry ledger's accounts (DESIGN section 3), each with its currency and its balance, the sum of
 * its postings. `code` names it: "merchant:<id>:available", "channel_clearing:<channel>:CNY", "fee_revenue:CNY";
 * test mode's platform and channel accounts are apart from live ones ("test:fee_revenue:CNY", DESIGN 12),
 * and a merchant account has its merchant row's mode, so the trial balance is zero per mode and currency.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: idColumn(),
    code: text('code').notNull().unique(),
    kind: text('kind').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    channelCode: text('channel_code'),
    currency: text('currency').notNull(),
    mode: text('mode').notNull().default('live'),
    balanceMinor: bigint('balance_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_accounts_mode_valid', sql`${t.mode} in (${quotedList(MODES)})`),
    check('ledger_accounts_kind_valid', sql`${t.kind} in (${quotedList(LEDGER_ACCOUNT_KINDS)})`),
    check('ledger_accounts_currency_valid', sql`${t.currency} in (${quotedList(Object.keys(CURRENCIES))})`),
    // A merchant's money can never go below zero, whatever the interleaving of writers.
    check(
      'ledger_accounts_merchant_nonneg',
      sql`${t.kind} not in ('merchant_available', 'merchant_locked') or ${t.balanceMinor} >= 0`,
    ),
    check(
      'ledger_accounts_owner',
      sql`(${t.kind} in ('merchant_available', 'merchant_locked')) = (${t.merchantId} is not null)
          and (${t.kind} = 'channel_clearing') = (${t.channelCode} is not null)`,
    ),
    uniqueIndex('ledger_accounts_merchant_kind_idx').on(t.merchantId, t.kind),
  ],
);

/** One movement of money: its postings sum to zero (checked at commit by a trigger, and by ledger:verify). */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: idColumn(),
    type: text('type').notNull(),
    /** The merchant whose money moved (every entry today moves one merchant's money). */
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    refNo: text('ref_no'),
    note: text('note'),
    /** Derived from the cause ("payout:<id>:deduct"): a repeat answers the first entry and writes nothing. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('journal_entries_type_valid', sql`${t.type} in (${quotedList(JOURNAL_ENTRY_TYPES)})`),
    index('journal_entries_merchant_idx').on(t.merchantId, t.createdAt),
  ],
);

/** The lines of a journal entry: a signed amount on one account (credit +, debit -). */
export const postings = pgTable(
  'postings',
  {
    id: idColumn(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    check('postings_amount_nonzero', sql`${t.amountMinor} <> 0`),
    index('postings_entry_idx').on(t.entryId),
    index('postings_account_idx').on(t.accountId),
  ],
);

export const holds = pgTable(
  'holds',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
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
    index('holds_merchant_idx').on(t.merchantId, t.createdAt),
  ],
);

export const fundFlows = pgTable(
  'fund_flows',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    type: text('type').notNull(),
    /** Signed change to available, minor units. */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    availableAfterMinor: bigint('available_after_minor', { mode: 'bigint' }).notNull(),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    /** The reference number a merchant searches by (order, payout, top-up or operator action number). */
    refNo: text('ref_no'),
    holdId: bigint('hold_id', { mode: 'number' }).references(() => holds.id),
    /** The journal entry whose posting on the merchant's available account this row shows. */
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => journalEntries.id),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('fund_flows_type_valid', sql`${t.type} in (${quotedList(FUND_FLOW_TYPES)})`),
    check('fund_flows_amount_nonzero', sql`${t.amountMinor} <> 0`),
    // Built with INCLUDE (amount_minor) by migration 0022 (drizzle has no INCLUDE): minute-range sums read it alone.
    index('fund_flows_merchant_time_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('fund_flows_merchant_type_time_idx').on(t.merchantId, t.type, t.createdAt.desc(), t.id.desc()),
    index('fund_flows_merchant_ref_no_idx').on(t.merchantId, t.refNo),
    index('fund_flows_hold_idx')
      .on(t.holdId)
      .where(sql`${t.holdId} is not null`),
  ],
);

/**
 * Money in, money out and entry count per merchant, type and UTC hour, kept by the ledger in the same
 * statement as each entry, so a list's sums and total over any filter read a few rows instead of them all.
 */
export const fundFlowHourly = pgTable(
  'fund_flow_hourly',
  {
    merchantId: merchantIdColumn(),
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

/**
 * fund_flow_hourly by UTC day, for the days before the horizon (rollup_horizons, 'fund_flow'): a sum over a
 * long range reads a row per type and day instead of one per hour. Entries never change, so a day, once
 * no transaction that began before its end is still open, never changes either: the housekeeping job then
 * writes its rows once, with the new horizon (Ledger closeFundFlowDays).
 */
export const fundFlowDaily = pgTable(
  'fund_flow_daily',
  {
    merchantId: merchantIdColumn(),
    type: text('type').notNull(),
    day: timestamp('day', { withTimezone: true }).notNull(),
    inMinor: bigint('in_minor', { mode: 'bigint' }).notNull(),
    outMinor: bigint('out_minor', { mode: 'bigint' }).notNull(),
    entries: bigint('entries', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.type, t.day] }),
    index('fund_flow_daily_merchant_day_idx').on(t.merchantId, t.day),
  ],
);

/**
 * fund_flow_hourly by UTC minute, for the hours before its horizon (rollup_horizons, 'fund_flow_minute'):
 * a range cut to the minute sums its partial hours at the edges from these rows, not from the entries
 * (bench lists at 10 M entries: 2,620 entries at the edges of an afternoon took 0.3 ms of 0.55). Written
 * as fund_flow_daily is: by the housekeeping job, once no transaction that began before the hour's end is
 * still open, and by a back-dated entry dated before the horizon (Ledger closeFundFlowMinutes).
 */
export const fundFlowMinutely = pgTable(
  'fund_flow_minutely',
  {
    merchantId: merchantIdColumn(),
    type: text('type').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    inMinor: bigint('in_minor', { mode: 'bigint' }).notNull(),
    outMinor: bigint('out_minor', { mode: 'bigint' }).notNull(),
    entries: bigint('entries', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.type, t.minute] }),
    index('fund_flow_minutely_merchant_minute_idx').on(t.merchantId, t.minute),
  ],
);
