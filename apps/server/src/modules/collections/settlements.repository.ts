import { and, asc, eq, notInArray } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { channels, merchants, settlements } from '../../db/schema/index.ts';

export type SettlementRow = typeof settlements.$inferSelect;

export const settlementsRepository = {
  insert: async (tx: Tx, row: typeof settlements.$inferInsert): Promise<SettlementRow> => {
    const [saved] = await tx.insert(settlements).values(row).returning();
    return saved;
  },

  /**
   * Collection channels with their merchant's time zone: what a settlement run walks through, but those
   * of the providers `leaveOut` names.
   */
  collectionChannels: (db: DbOrTx, { leaveOut }: { leaveOut: readonly string[] }) =>
    db
      .select({ channel: channels, timeZone: merchants.timezone })
      .from(channels)
      .innerJoin(merchants, eq(merchants.id, channels.merchantId))
      .where(
        and(
          eq(channels.kind, 'collection'),
          leaveOut.length > 0 ? notInArray(channels.provider, [...leaveOut]) : undefined,
        ),
      )
      .orderBy(asc(channels.id)),

  /** Batches waiting to be posted, but those of the channels of the providers `leaveOut` names. */
  pendingIds: async (db: DbOrTx, { leaveOut }: { leaveOut: readonly string[] }): Promise<number[]> => {
    const rows = await db
      .select({ id: settlements.id })
      .from(settlements)
      .innerJoin(channels, eq(channels.id, settlements.channelId))
      .where(
        and(
          eq(settlements.status, 'pending_settlement'),
          leaveOut.length > 0 ? notInArray(channels.provider, [...leaveOut]) : undefined,
        ),
      )
      .orderBy(asc(settlements.id));
    return rows.map((r) => r.id);
  },

  lockPending: async (tx: Tx, id: number): Promise<SettlementRow | undefined> => {
    const [row] = await tx
      .select()
      .from(settlements)
      .where(and(eq(settlements.id, id), eq(settlements.status, 'pending_settlement')))
      .for('update');
    return row;
  },

  markSettled: async (tx: Tx, id: number, entryId: number, at: Date) => {
    const [row] = await tx
      .update(settlements)
      .set({ status: 'settled', entryId, settledAt: at })
      .where(eq(settlements.id, id))
      .returning();
    return row;
  },

  findByNo: async (db: DbOrTx, merchantId: number, settlementNo: string) => {
    const [row] = await db
      .select()
      .from(settlements)
      .where(and(eq(settlements.merchantId, merchantId), eq(settlements.settlementNo, settlementNo)));
    return row;
  },

  noOf: async (db: DbOrTx, id: number): Promise<string | null> => {
    const [row] = await db
      .select({ no: settlements.settlementNo })
      .from(settlements)
      .where(eq(settlements.id, id));
    return row?.no ?? null;
  },
};
