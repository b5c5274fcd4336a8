import { and, asc, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows, type Tx } from '../../db/client.ts';
import {
  channels,
  collections,
  merchants,
  receivedPayments,
  reconciliationDays,
  reconciliationResolutions,
  statementImports,
} from '../../db/schema/index.ts';

export type ReceivedPaymentRow = typeof receivedPayments.$inferSelect;
export type NewReceivedPayment = typeof receivedPayments.$inferInsert;
export type StatementImportRow = typeof statementImports.$inferSelect;
export type ResolutionRow = typeof reconciliationResolutions.$inferSelect;

export const reconciliationRepository = {
  /** Every channel of that code (merchants may share a code; the signature tells which one it is). */
  channelsByCode: (db: DbOrTx, code: string) =>
    db.select().from(channels).where(eq(channels.code, code)).orderBy(asc(channels.id)),

  channel: async (db: DbOrTx, id: number) => {
    const [row] = await db.select().from(channels).where(eq(channels.id, id));
    return row;
  },

  merchant: async (db: DbOrTx, id: number) => {
    const [row] = await db
      .select({ id: merchants.id, no: merchants.no, timezone: merchants.timezone, mode: merchants.mode })
      .from(merchants)
      .where(eq(merchants.id, id));
    return row;
  },

  /** A new payment, or undefined when (channel, txn_id) was received before (it waits for that one). */
  insertPayment: async (tx: Tx, row: NewReceivedPayment) => {
    const [saved] = await tx.insert(receivedPayments).values(row).onConflictDoNothing().returning();
    return saved;
  },

  /**
   * Many new payments at once, as column arrays (one statement, a handful of parameters however many
   * lines); answers those written: a transaction id received before is not.
   */
  insertPayments: async (tx: Tx, rows: NewReceivedPayment[]) => {
    if (rows.length === 0) return [];
    const column = <T>(pick: (row: NewReceivedPayment) => T) => sql.param(rows.map(pick));
    return queryRows<{ id: number; txn_id: string }>(
      tx,
      sql`insert into received_payments (merchant_id, channel_id, txn_id, reference, amount_minor, currency,
                                         paid_at, business_date, payer, statement_import_id, collection_id,
                                         status, problem)
          select * from unnest(${column((r) => r.merchantId)}::bigint[], ${column((r) => r.channelId)}::bigint[],
                               ${column((r) => r.txnId)}::text[], ${column((r) => r.reference)}::text[],
                               ${column((r) => String(r.amountMinor))}::bigint[], ${column((r) => r.currency)}::text[],
                               ${column((r) => (r.paidAt as Date).toISOString())}::timestamptz[],
                               ${column((r) => r.businessDate)}::date[], ${column((r) => r.payer ?? null)}::text[],
                               ${column((r) => r.statementImportId ?? null)}::bigint[],
                               ${column((r) => r.collectionId ?? null)}::bigint[], ${column((r) => r.status)}::text[],
                               ${column((r) => r.problem ?? null)}::text[])
          on conflict (channel_id, txn_id) do nothing
          returning id::int as id, txn_id`,
    );
  },

  /** Payments received before, now listed by a statement (the first statement that lists each). */
  markListed: async (tx: Tx, channelId: number, txnIds: string[], statementImportId: number) => {
    if (txnIds.length === 0) return;
    await tx
      .update(receivedPayments)
      .set({
        statementImportId: sql`coalesce(${receivedPayments.statementImportId}, ${statementImportId}::bigint)`,
      })
      .where(
        and(
          eq(receivedPayments.channelId, channelId),
          sql`${receivedPayments.txnId} = any(${sql.param(txnIds)}::text[])`,
        ),
      );
  },

  /** Payments whose order could not be paid after all (raced): kept for review. */
  markNotPayable: async (tx: Tx, ids: number[]) => {
    if (ids.length === 0) return;
    await tx
      .update(receivedPayments)
      .set({ status: 'review', problem: 'not_payable' })
      .where(sql`${receivedPayments.id} = any(${sql.param(ids)}::bigint[])`);
  },

  findPayment: async (db: DbOrTx, channelId: number, txnId: string) => {
    const [row] = await db
      .select()
      .from(receivedPayments)
      .where(and(eq(receivedPayments.channelId, channelId), eq(receivedPayments.txnId, txnId)));
    return row;
  },

  paymentById: async (db: DbOrTx, id: number) => {
    const [row] = await db.select().from(receivedPayments).where(eq(receivedPayments.id, id));
    return row;
  },

  /** A payment seen again: by a notification, or listed by a statement (first time only). */
  markSeen: async (tx: Tx, id: number, seen: { notifiedAt?: Date; statementImportId?: number }) => {
    await tx
      .update(receivedPayments)
      .set({
        ...(seen.notifiedAt
          ? { notifiedAt: sql`coalesce(${receivedPayments.notifiedAt}, ${seen.notifiedAt})` }
          : {}),
        ...(seen.statementImportId
          ? {
              statementImportId: sql`coalesce(${receivedPayments.statementImportId}, ${seen.statementImportId}::bigint)`,
            }
          : {}),
      })
      .where(eq(receivedPayments.id, id));
  },

  setOutcome: async (
    tx: Tx,
    id: number,
    outcome: { status: string; problem: string | null; collectionId: number | null },
  ) => {
    await tx.update(receivedPayments).set(outcome).where(eq(receivedPayments.id, id));
  },

  resolvePayment: async (tx: Tx, id: number) => {
    const [row] = await tx
      .update(receivedPayments)
      .set({ status: 'resolved' })
      .where(and(eq(receivedPayments.id, id), sql`${receivedPayments.status} in ('unknown', 'review')`))
      .returning();
    return row;
  },

  insertImport: async (tx: Tx, row: typeof statementImports.$inferInsert) => {
    const [saved] = await tx.insert(statementImports).values(row).returning();
    return saved;
  },

  setNewLines: async (tx: Tx, id: number, newLines: number) => {
    await tx.update(statementImports).set({ newLines }).where(eq(statementImports.id, id));
  },

  importsOf: (db: DbOrTx, channelId: number, businessDate: string) =>
    db
      .select()
      .from(statementImports)
      .where(and(eq(statementImports.channelId, channelId), eq(statementImports.businessDate, businessDate)))
      .orderBy(asc(statementImports.id)),

  paymentsOf: (db: DbOrTx, channelId: number, businessDate: string) =>
    db
      .select({
        payment: receivedPayments,
        tradeNo: collections.tradeNo,
        orderAmountMinor: collections.amountMinor,
      })
      .from(receivedPayments)
      .leftJoin(collections, eq(collections.id, receivedPayments.collectionId))
      .where(and(eq(receivedPayments.channelId, channelId), eq(receivedPayments.businessDate, businessDate)))
      .orderBy(asc(receivedPayments.id)),

  /**
   * Our orders of the channel paid in the day (the merchant's zone) that no imported statement lists: paid
   * by a notification the bank's own statement does not confirm, or by hand.
   */
  missingOf: (db: DbOrTx, channelId: number, start: Date, end: Date) =>
    db
      .select({
        id: collections.id,
        tradeNo: collections.tradeNo,
        amountMinor: collections.amountMinor,
        paidAt: collections.paidAt,
      })
      .from(collections)
      .where(
        and(
          eq(collections.channelId, channelId),
          eq(collections.status, 'paid'),
          sql`${collections.paidAt} >= ${start} and ${collections.paidAt} < ${end}`,
          sql`not exists (select 1 from received_payments p where p.collection_id = ${collections.id}
                          and p.statement_import_id is not null)`,
        ),
      )
      .orderBy(asc(collections.paidAt), asc(collections.id)),

  resolutionsOf: (db: DbOrTx, channelId: number, businessDate: string) =>
    db
      .select()
      .from(reconciliationResolutions)
      .where(
        and(
          eq(reconciliationResolutions.channelId, channelId),
          eq(reconciliationResolutions.businessDate, businessDate),
        ),
      )
      .orderBy(asc(reconciliationResolutions.id)),

  /** A resolution, or undefined when that difference was resolved already. */
  insertResolution: async (tx: Tx, row: typeof reconciliationResolutions.$inferInsert) => {
    const [saved] = await tx.insert(reconciliationResolutions).values(row).onConflictDoNothing().returning();
    return saved;
  },

  setResolutionEntry: async (tx: Tx, id: number, entryId: number) => {
    await tx.update(reconciliationResolutions).set({ entryId }).where(eq(reconciliationResolutions.id, id));
  },

  closedDay: async (db: DbOrTx, channelId: number, businessDate: string) => {
    const [row] = await db
      .select()
      .from(reconciliationDays)
      .where(
        and(eq(reconciliationDays.channelId, channelId), eq(reconciliationDays.businessDate, businessDate)),
      );
    return row;
  },

  closeDay: async (tx: Tx, row: typeof reconciliationDays.$inferInsert) => {
    const [saved] = await tx.insert(reconciliationDays).values(row).onConflictDoNothing().returning();
    return saved;
  },

  /** The collection a resolution names, for a missing order: paid on this channel. */
  collectionOfChannel: async (db: DbOrTx, channelId: number, tradeNo: string) => {
    const [row] = await db
      .select()
      .from(collections)
      .where(and(eq(collections.channelId, channelId), eq(collections.tradeNo, tradeNo)));
    return row;
  },

  collectionById: async (db: DbOrTx, id: number) => {
    const [row] = await db.select().from(collections).where(eq(collections.id, id));
    return row;
  },
};
