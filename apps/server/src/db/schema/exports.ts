import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { EXPORT_FORMATS, EXPORT_STATUSES } from '@paydesk/shared/exports/exports.schemas.ts';
import { users } from './merchants.ts';
import { quotedList } from './sql-lists.ts';
import { idColumn, merchantIdColumn } from './columns.ts';

// Offline exports (DESIGN sections 2, 4 and 9): one row per task, run by the export.run job.

export const exportTasks = pgTable(
  'export_tasks',
  {
    id: idColumn(),
    merchantId: merchantIdColumn(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** collections, settlements, payouts, fund_flows, ... (modules/exports/kinds). */
    kind: text('kind').notNull(),
    format: text('format').notNull(),
    /** The list's query as the user filtered it (no paging). */
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    /** The zone the filter's times were read in and the file's times are written in. */
    timeZone: text('time_zone').notNull(),
    /** en, zh-cn or vi: the language of the file's column titles and labels. */
    locale: text('locale').notNull(),
    /** The snapshot: the list's rows with an id up to this one (rows added later are not exported). */
    maxRowId: bigint('max_row_id', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('waiting'),
    rowsExpected: integer('rows_expected').notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    /** The sums of the rows written (decimal strings keyed as the list's meta.sums). */
    sums: jsonb('sums').$type<Record<string, string>>(),
    fileKey: text('file_key'),
    size: bigint('size', { mode: 'number' }),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** Last sign of life of a running export (progress), so an interrupted one can be told apart. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When the file is deleted (7 days after it was written). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The file was deleted at expiry. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
  },
  (t) => [
    check('export_tasks_status_valid', sql`${t.status} in (${quotedList(EXPORT_STATUSES)})`),
    check('export_tasks_format_valid', sql`${t.format} in (${quotedList(EXPORT_FORMATS)})`),
    index('export_tasks_merchant_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('export_tasks_merchant_status_idx').on(t.merchantId, t.status),
    index('export_tasks_user_idx').on(t.userId),
    index('export_tasks_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.fileKey} is not null`),
  ],
);
