import { and, asc, eq, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, type Tx } from '../../db/client.ts';
import { channels } from '../../db/schema/index.ts';

export type ChannelRow = typeof channels.$inferSelect;
export type NewChannel = typeof channels.$inferInsert;

export const channelsRepository = {
  /** Opens a channel, or opens again a closed one of the same code with the new terms. */
  upsertOpen: async (tx: Tx, row: NewChannel): Promise<ChannelRow> => {
    const [saved] = await tx
      .insert(channels)
      .values(row)
      .onConflictDoUpdate({
        target: [channels.merchantId, channels.kind, channels.code],
        set: { ...row, status: 'open', closedBy: null, updatedAt: new Date() },
      })
      .returning();
    return saved;
  },

  close: async (tx: Tx, merchantId: number, kind: string, code: string, operator: string) => {
    const [row] = await tx
      .update(channels)
      .set({ status: 'closed', closedBy: operator, updatedAt: new Date() })
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind), eq(channels.code, code)))
      .returning();
    return row;
  },

  listOfMerchant: (db: DbOrTx, merchantId: number): Promise<ChannelRow[]> =>
    db.select().from(channels).where(eq(channels.merchantId, merchantId)).orderBy(asc(channels.id)),

  /** The providers of the merchant row's open channels (one of each). */
  openProviders: async (db: DbOrTx, merchantId: number): Promise<string[]> => {
    const rows = await db
      .selectDistinct({ provider: channels.provider })
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.status, 'open')));
    return rows.map((row) => row.provider);
  },

  /** The merchant's channel of this kind and code, open or closed. */
  findOfMerchant: async (db: DbOrTx, merchantId: number, kind: string, code: string) => {
    const [row] = await db
      .select()
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, kind), eq(channels.code, code)));
    return row;
  },

  listAll: (db: DbOrTx): Promise<ChannelRow[]> => db.select().from(channels).orderBy(asc(channels.id)),

  findById: async (db: DbOrTx, id: number): Promise<ChannelRow | undefined> => {
    const [row] = await db.select().from(channels).where(eq(channels.id, id));
    return row;
  },

  /** The merchant's open channel of this kind: the one named, else the first opened. */
  findOpen: async (
    db: DbOrTx,
    merchantId: number,
    kind: 'collection' | 'payout',
    code?: string,
  ): Promise<ChannelRow | undefined> => {
    // Every gateway order reads it: a prepared statement per shape (with or without a code).
    const name = code ? 'open_channel_by_code' : 'open_channel_first';
    const [row] = await preparedOnce(db, name, (on) =>
      on
        .select()
        .from(channels)
        .where(
          and(
            eq(channels.merchantId, sql.placeholder('merchantId')),
            eq(channels.kind, sql.placeholder('kind')),
            eq(channels.status, 'open'),
            code ? eq(channels.code, sql.placeholder('code')) : undefined,
          ),
        )
        .orderBy(asc(channels.id))
        .limit(1)
        .prepare(name),
    ).execute({ merchantId, kind, code: code ?? null });
    return row;
  },
};
