import type { SessionCheck } from '../../plugins/auth-context.ts';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { listTotals, sumsRowsWhere } from '../../db/hourly-totals.ts';
import { channels, merchants, settlements } from '../../db/schema/index.ts';
import { listPage } from '../../db/keyset.ts';
import type { Position } from '../../lib/cursor.ts';

export type SettlementRow = typeof settlements.$inferSelect;

export type SettlementFilter = {
  merchantId: number;
  settlementNo?: string;
  channel?: string;
  from?: Date;
  to?: Date;
  /** Exports' snapshot: only rows with an id up to this one (rows added later are left out). */
  maxId?: number;
};

export const settlementsRepository = {
  insert: async (tx: Tx, row: typeof settlements.$inferInsert): Promise<SettlementRow> => {
    const [saved] = await tx.insert(settlements).values(row).returning();
    return saved;
  },

  /**
   * Collection channels with their merchant's time zone: what a settlement run walks through. Without
   * `withSandbox`, the sandbox provider's channels are left out.
   */
  collectionChannels: (db: DbOrTx, { withSandbox }: { withSandbox: boolean }) =>
    db
      .select({ channel: channels, timeZone: merchants.timezone })
      .from(channels)
      .innerJoin(merchants, eq(merchants.id, channels.merchantId))
      .where(and(eq(channels.kind, 'collection'), withSandbox ? undefined : ne(channels.provider, 'sandbox')))
      .orderBy(asc(channels.id)),

  /** Batches waiting to be posted; without `withSandbox`, not those of the sandbox provider's channels. */
  pendingIds: async (db: DbOrTx, { withSandbox }: { withSandbox: boolean }): Promise<number[]> => {
    const rows = await db
      .select({ id: settlements.id })
      .from(settlements)
      .innerJoin(channels, eq(channels.id, settlements.channelId))
      .where(
        and(
          eq(settlements.status, 'pending_settlement'),
          withSandbox ? undefined : ne(channels.provider, 'sandbox'),
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

  page: (db: DbOrTx, filter: SettlementFilter, limit: number, position: Position) =>
    listPage<typeof settlements.$inferSelect>(
      db,
      settlements,
      {
        merchantId: filter.merchantId,
        equal: {
          settlementNo: { column: settlements.settlementNo, value: filter.settlementNo },
          channel: { column: settlements.channelCode, value: filter.channel },
        },
        from: filter.from,
        to: filter.to,
        maxId: filter.maxId,
      },
      limit,
      position,
    ),

  /** Count, gross, fee and net of the whole filter, from list_hourly (DESIGN 8). */
  totals: async (db: DbOrTx, filter: SettlementFilter, session?: SessionCheck) => {
    // The rows' own values; listTotals adds merchantId, status and facet.
    const values = {
      settlementNo: filter.settlementNo || undefined,
      channel: filter.channel || undefined,
      maxId: filter.maxId,
    };
    const t = await listTotals(
      db,
      'settlement',
      {
        ...filter,
        facet: filter.channel,
        rowsOnly: Boolean(filter.settlementNo) || filter.maxId !== undefined,
      },
      {
        values,
        select: (from, to) => sql`
        select count(*) as rows, coalesce(sum(${settlements.grossMinor}), 0) as a,
               coalesce(sum(${settlements.feeMinor}), 0) as b, coalesce(sum(${settlements.netMinor}), 0) as c
          from ${settlements}
          where ${sumsRowsWhere(settlements, values, { settlementNo: settlements.settlementNo, channel: settlements.channelCode }, from, to)}`,
      },
      session,
    );
    return { count: t.count, grossMinor: t.a, feeMinor: t.b, netMinor: t.c };
  },
};
