import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows, type Tx } from '../../db/client.ts';
import { exportTasks, merchants, testDataDeletions } from '../../db/schema/index.ts';
import { deleteOrdersCounted } from '../lists/index.ts';

export type TestDataDeletionRow = typeof testDataDeletions.$inferSelect;

/**
 * The test objects of a test twin, outside the ledger (which erases its own): reconciliation (resolutions,
 * received payments, statement imports, closed days), callbacks and their attempts, channel attempts, refunds, the limits' day counters, orders, Idempotency-Keys, settlements, daily reports and exports. Orders go
 * before the settlements they name, each kind taken out of the dashboard's and lists' sums at once
 * (deleteOrdersCounted), the settlements by their rollup triggers.
 */
export async function deleteTestObjects(tx: Tx, merchantId: number): Promise<void> {
  await tx.execute(sql`delete from callback_attempts where event_id in
                         (select id from callback_events where merchant_id = ${merchantId})`);
  for (const table of [
    'reconciliation_resolutions',
    'received_payments',
    'statement_imports',
    'reconciliation_days',
    'callback_events',
    'channel_attempts',
    // Refunds name their collections (and leave the Refunds list's sums by their rollup trigger); the
    // limits' day counters count test orders. The limits and block lists themselves are configuration.
    'refunds',
    'limit_usage',
  ]) {
    await tx.execute(sql`delete from ${sql.identifier(table)} where merchant_id = ${merchantId}`);
  }
  await deleteOrdersCounted(tx, 'collection', merchantId);
  await deleteOrdersCounted(tx, 'payout', merchantId);
  for (const table of ['idempotency_keys', 'settlements']) {
    await tx.execute(sql`delete from ${sql.identifier(table)} where merchant_id = ${merchantId}`);
  }
}

/** The kept daily reports and the exports; answers the export files to delete once this commits. */
export async function deleteTestReportsAndExports(tx: Tx, merchantId: number): Promise<string[]> {
  await tx.execute(sql`delete from daily_reports where merchant_id = ${merchantId}`);
  const files = await queryRows<{ file_key: string | null }>(
    tx,
    sql`delete from export_tasks where merchant_id = ${merchantId} returning file_key`,
  );
  return files.flatMap((f) => (f.file_key ? [f.file_key] : []));
}

export const testDataRepository = {
  merchant: async (db: DbOrTx, id: number) => {
    const [row] = await db.select().from(merchants).where(eq(merchants.id, id));
    if (!row) throw new Error(`Merchant ${id} is not there.`);
    return row;
  },

  /** The test twin of a live row (every merchant has one). */
  twinOf: async (db: DbOrTx, liveMerchantId: number) => {
    const [row] = await db.select().from(merchants).where(eq(merchants.liveMerchantId, liveMerchantId));
    if (!row) throw new Error(`Merchant ${liveMerchantId} has no test twin.`);
    return row;
  },

  latest: async (db: DbOrTx, merchantId: number): Promise<TestDataDeletionRow | undefined> => {
    const [row] = await db
      .select()
      .from(testDataDeletions)
      .where(eq(testDataDeletions.merchantId, merchantId))
      .orderBy(desc(testDataDeletions.id))
      .limit(1);
    return row;
  },

  find: async (db: DbOrTx, id: number): Promise<TestDataDeletionRow | undefined> => {
    const [row] = await db.select().from(testDataDeletions).where(eq(testDataDeletions.id, id));
    return row;
  },

  /** A new request, unless one is queued or running (then undefined). */
  insert: async (tx: Tx, merchantId: number, userId: number, at: Date) => {
    const [row] = await tx
      .insert(testDataDeletions)
      .values({ merchantId, requestedBy: userId, requestedAt: at })
      .onConflictDoNothing()
      .returning();
    return row;
  },

  /**
   * queued -> running (a retry of a job that stopped midway takes it again: its deletion never committed);
   * undefined when it is done.
   */
  start: async (db: DbOrTx, id: number, at: Date) => {
    const [row] = await db
      .update(testDataDeletions)
      .set({ status: 'running', startedAt: at })
      .where(and(eq(testDataDeletions.id, id), inArray(testDataDeletions.status, ['queued', 'running'])))
      .returning();
    return row;
  },

  finish: async (tx: Tx, id: number, at: Date) => {
    await tx
      .update(testDataDeletions)
      .set({ status: 'done', finishedAt: at })
      .where(eq(testDataDeletions.id, id));
  },

  /** Exports of the twin still being written (the deletion would pull their rows from under them). */
  runningExports: async (db: DbOrTx, merchantId: number) => {
    const rows = await db
      .select({ id: exportTasks.id })
      .from(exportTasks)
      .where(
        and(eq(exportTasks.merchantId, merchantId), inArray(exportTasks.status, ['waiting', 'exporting'])),
      );
    return rows.length;
  },
};
