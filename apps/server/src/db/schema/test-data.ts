import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, merchantIdColumn } from './columns.ts';
import { users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';

export const TEST_DATA_DELETION_STATES = ['queued', 'running', 'done'] as const;

/**
 * A ROOT's "delete all test data" (DESIGN 12): one row per request, on the test twin, worked by a job
 * (queued -> running -> done). At most one is queued or running per merchant.
 */
export const testDataDeletions = pgTable(
  'test_data_deletions',
  {
    id: idColumn(),
    /** The test twin whose objects go. */
    merchantId: merchantIdColumn(),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    status: text('status').notNull().default('queued'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('test_data_deletions_status_valid', sql`${t.status} in (${quotedList(TEST_DATA_DELETION_STATES)})`),
    index('test_data_deletions_merchant_idx').on(t.merchantId, t.id.desc()),
    index('test_data_deletions_requested_by_idx').on(t.requestedBy),
    uniqueIndex('test_data_deletions_one_at_a_time')
      .on(t.merchantId)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);
