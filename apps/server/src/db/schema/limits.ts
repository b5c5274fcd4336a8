import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { BLOCK_LISTS, LIMIT_KINDS } from '@paydesk/shared/limits/limits.schemas.ts';
import { idColumn, merchantIdColumn } from './columns.ts';
import { quotedList } from './sql-lists.ts';

// Limits and risk rules (DESIGN 14), per merchant row (so per mode: a test twin has its own) and kind.
// Amounts are minor units of the kind's currency (the merchant's; USDT for withdrawals). A null limit is
// no limit; a row with none left is deleted.

export const merchantLimits = pgTable(
  'merchant_limits',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    kind: text('kind').notNull(),
    perOrderMinMinor: bigint('per_order_min_minor', { mode: 'bigint' }),
    perOrderMaxMinor: bigint('per_order_max_minor', { mode: 'bigint' }),
    dailyAmountMinor: bigint('daily_amount_minor', { mode: 'bigint' }),
    dailyCount: integer('daily_count'),
    payeeDailyCount: integer('payee_daily_count'),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('merchant_limits_merchant_kind_key').on(t.merchantId, t.kind),
    check('merchant_limits_kind_valid', sql`${t.kind} in (${quotedList(LIMIT_KINDS)})`),
    check(
      'merchant_limits_not_negative',
      sql`coalesce(${t.perOrderMinMinor}, 0) >= 0 and coalesce(${t.perOrderMaxMinor}, 0) >= 0
        and coalesce(${t.dailyAmountMinor}, 0) >= 0 and coalesce(${t.dailyCount}, 0) >= 0
        and coalesce(${t.payeeDailyCount}, 0) >= 0`,
    ),
  ],
);

/** One entry of a block list: a payee account, a wallet address or a payer IP address or CIDR block. */
export const merchantBlocks = pgTable(
  'merchant_blocks',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    list: text('list').notNull(),
    /** Normalised: an account without spaces in capitals, an ERC20 address in lower case, a canonical IP. */
    value: text('value').notNull(),
    createdBy: text('created_by').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('merchant_blocks_merchant_list_value_key').on(t.merchantId, t.list, t.value),
    check('merchant_blocks_list_valid', sql`${t.list} in (${quotedList(BLOCK_LISTS)})`),
  ],
);

/**
 * What a merchant's orders of a kind used of a local day (its time zone), counted while it has limits of
 * that kind: `subject` '' for the whole kind, a payee account for payee_daily_count. Raised by a
 * conditional upsert in the order's own transaction, so racing orders never pass a cap together.
 */
export const limitUsage = pgTable(
  'limit_usage',
  {
    merchantId: merchantIdColumn(),
    kind: text('kind').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    subject: text('subject').notNull().default(''),
    amountMinor: bigint('amount_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.kind, t.day, t.subject] })],
);
