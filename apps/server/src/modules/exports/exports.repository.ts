import { and, asc, eq, inArray, isNotNull, lte, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { newestFirst } from '../lists/index.ts';
import { exportTasks, merchants } from '../../db/schema/index.ts';

export type ExportTaskRow = typeof exportTasks.$inferSelect;

// Serialises the "fewer than N running" check of one merchant's exports across processes.
const RUNNING_LOCK = 7_246_002;

export const exportsRepository = {
  /** The newest row's id of a list's table (its primary key's last entry): the snapshot's bound. */
  maxIdOf: async (db: DbOrTx, table: PgTable & { id: PgColumn }): Promise<number> => {
    const [row] = await db.select({ max: sql<string | null>`max(${table.id})::text` }).from(table);
    return Number(row?.max ?? 0);
  },

  currencyOf: async (db: DbOrTx, merchantId: number): Promise<string | undefined> => {
    const [row] = await db
      .select({ currency: merchants.currency })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    return row?.currency;
  },

  /** The merchant's currency and time zone (a daily report's days are the merchant's own). */
  merchantTermsOf: async (db: DbOrTx, merchantId: number) => {
    const [row] = await db
      .select({ id: merchants.id, currency: merchants.currency, timezone: merchants.timezone })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    return row;
  },

  insert: async (tx: Tx, row: typeof exportTasks.$inferInsert): Promise<ExportTaskRow> => {
    const [saved] = await tx.insert(exportTasks).values(row).returning();
    return saved!;
  },

  /** The merchant's task, when it is of one of `kinds` (those the reader may see). */
  findVisible: async (db: DbOrTx, merchantId: number, kinds: readonly string[], id: number) => {
    if (kinds.length === 0) return undefined;
    const [row] = await db
      .select()
      .from(exportTasks)
      .where(
        and(
          eq(exportTasks.merchantId, merchantId),
          inArray(exportTasks.kind, [...kinds]),
          eq(exportTasks.id, id),
        ),
      );
    return row;
  },

  findById: async (db: DbOrTx, id: number) => {
    const [row] = await db.select().from(exportTasks).where(eq(exportTasks.id, id));
    return row;
  },

  /** A page of the merchant's tasks of `kinds`, newest first (filtered here, so paging and totals agree). */
  page: async (db: DbOrTx, merchantId: number, kinds: readonly string[], limit: number, offset: number) => {
    if (kinds.length === 0) return [];
    return db
      .select()
      .from(exportTasks)
      .where(and(eq(exportTasks.merchantId, merchantId), inArray(exportTasks.kind, [...kinds])))
      .orderBy(...newestFirst(exportTasks.createdAt, exportTasks.id))
      .limit(limit)
      .offset(offset);
  },

  count: async (db: DbOrTx, merchantId: number, kinds: readonly string[]): Promise<number> => {
    if (kinds.length === 0) return 0;
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(exportTasks)
      .where(and(eq(exportTasks.merchantId, merchantId), inArray(exportTasks.kind, [...kinds])));
    return Number(row?.count ?? 0);
  },

  /** The merchant's tasks not finished yet (waiting or exporting). */
  countUnfinished: async (tx: Tx, merchantId: number): Promise<number> => {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(exportTasks)
      .where(
        and(eq(exportTasks.merchantId, merchantId), inArray(exportTasks.status, ['waiting', 'exporting'])),
      );
    return Number(row?.count ?? 0);
  },

  lockMerchant: async (tx: Tx, merchantId: number) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RUNNING_LOCK}::int, ${merchantId}::int)`);
  },

  /** waiting -> exporting, only while fewer than `limit` of the merchant's run (call under lockMerchant). */
  claim: async (tx: Tx, task: ExportTaskRow, limit: number, at: Date) => {
    const [row] = await tx
      .update(exportTasks)
      .set({ status: 'exporting', startedAt: at, heartbeatAt: at, rowsDone: 0, error: null })
      .where(
        and(
          eq(exportTasks.id, task.id),
          eq(exportTasks.status, 'waiting'),
          sql`(select count(*) from ${exportTasks} running where running.merchant_id = ${task.merchantId} and running.status = 'exporting') < ${limit}`,
        ),
      )
      .returning();
    return row;
  },

  /** The merchant's oldest waiting tasks (the next to start when one ends). */
  waiting: (tx: Tx, merchantId: number, limit: number) =>
    tx
      .select({ id: exportTasks.id })
      .from(exportTasks)
      .where(and(eq(exportTasks.merchantId, merchantId), eq(exportTasks.status, 'waiting')))
      .orderBy(asc(exportTasks.id))
      .limit(limit),

  progress: async (db: DbOrTx, id: number, rowsDone: number, at: Date) => {
    await db
      .update(exportTasks)
      .set({ rowsDone, heartbeatAt: at })
      .where(and(eq(exportTasks.id, id), eq(exportTasks.status, 'exporting')));
  },

  succeed: async (
    tx: Tx,
    id: number,
    set: {
      fileKey: string;
      size: number;
      rowsDone: number;
      sums: Record<string, string>;
      at: Date;
      expiresAt: Date;
    },
  ) => {
    const [row] = await tx
      .update(exportTasks)
      .set({
        status: 'success',
        fileKey: set.fileKey,
        size: set.size,
        rowsDone: set.rowsDone,
        sums: set.sums,
        finishedAt: set.at,
        heartbeatAt: set.at,
        expiresAt: set.expiresAt,
      })
      .where(and(eq(exportTasks.id, id), eq(exportTasks.status, 'exporting')))
      .returning();
    return row;
  },

  fail: async (tx: Tx, id: number, error: string, at: Date) => {
    const [row] = await tx
      .update(exportTasks)
      .set({ status: 'failed', error, finishedAt: at })
      .where(and(eq(exportTasks.id, id), eq(exportTasks.status, 'exporting')))
      .returning();
    return row;
  },

  /** failed -> waiting with a fresh snapshot; a task in any other state is left alone. */
  requeue: async (
    tx: Tx,
    merchantId: number,
    id: number,
    set: { maxRowId: number; rowsExpected: number },
  ) => {
    const [row] = await tx
      .update(exportTasks)
      .set({
        status: 'waiting',
        maxRowId: set.maxRowId,
        rowsExpected: set.rowsExpected,
        rowsDone: 0,
        error: null,
        startedAt: null,
        finishedAt: null,
        heartbeatAt: null,
      })
      .where(
        and(eq(exportTasks.merchantId, merchantId), eq(exportTasks.id, id), eq(exportTasks.status, 'failed')),
      )
      .returning();
    return row;
  },

  /** Files past their expiry, oldest first. */
  expiredFiles: (db: DbOrTx, at: Date, limit: number) =>
    db
      .select({ id: exportTasks.id, fileKey: exportTasks.fileKey })
      .from(exportTasks)
      .where(and(isNotNull(exportTasks.fileKey), lte(exportTasks.expiresAt, at)))
      .orderBy(asc(exportTasks.expiresAt))
      .limit(limit),

  markExpired: async (db: DbOrTx, id: number, at: Date) => {
    await db.update(exportTasks).set({ fileKey: null, expiredAt: at }).where(eq(exportTasks.id, id));
  },

  /** Running tasks that gave no sign of life since `before` (their process died). */
  stalled: (db: DbOrTx, before: Date) =>
    db
      .select({ id: exportTasks.id, merchantId: exportTasks.merchantId })
      .from(exportTasks)
      .where(and(eq(exportTasks.status, 'exporting'), lt(exportTasks.heartbeatAt, before))),

  /** Waiting tasks created before `before` (their job may be lost): sent again by housekeeping. */
  longWaiting: (db: DbOrTx, before: Date) =>
    db
      .select({ id: exportTasks.id, merchantId: exportTasks.merchantId })
      .from(exportTasks)
      .where(and(eq(exportTasks.status, 'waiting'), lt(exportTasks.createdAt, before))),
};
