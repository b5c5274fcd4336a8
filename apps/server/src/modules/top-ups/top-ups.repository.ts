import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { merchants, topUps } from '../../db/schema/index.ts';
import { newestFirst } from '../lists/index.ts';
import { transitionFrom } from '../../db/transition.ts';

export type TopUpRow = typeof topUps.$inferSelect;

export const topUpsRepository = {
  insert: async (tx: Tx, row: typeof topUps.$inferInsert): Promise<TopUpRow> => {
    const [saved] = await tx.insert(topUps).values(row).returning();
    return saved;
  },

  findByNo: async (db: DbOrTx, merchantId: number, topUpNo: string) => {
    const [row] = await db
      .select()
      .from(topUps)
      .where(and(eq(topUps.merchantId, merchantId), eq(topUps.topUpNo, topUpNo)));
    return row;
  },

  /** Any merchant's (the operator API). */
  findAnyByNo: async (db: DbOrTx, topUpNo: string) => {
    const [row] = await db
      .select({ topUp: topUps, merchantNo: merchants.no })
      .from(topUps)
      .innerJoin(merchants, eq(merchants.id, topUps.merchantId))
      .where(eq(topUps.topUpNo, topUpNo));
    return row;
  },

  /** The review decision, only from pending_review: a racing decision finds nothing and changes nothing. */
  decide: (
    tx: Tx,
    id: number,
    set: Partial<typeof topUps.$inferInsert> & { status: 'approved' | 'rejected' },
  ) => transitionFrom(tx, topUps, id, 'pending_review', set),

  /** The operator's queue: newest first, any merchant or one, any status or one. */
  listForOps: (db: DbOrTx, filter: { merchantId?: number; status?: string; limit: number }) =>
    db
      .select({ topUp: topUps, merchantNo: merchants.no })
      .from(topUps)
      .innerJoin(merchants, eq(merchants.id, topUps.merchantId))
      .where(
        and(
          filter.merchantId !== undefined ? eq(topUps.merchantId, filter.merchantId) : undefined,
          filter.status ? eq(topUps.status, filter.status) : undefined,
        ),
      )
      .orderBy(...newestFirst(topUps.createdAt, topUps.id))
      .limit(filter.limit),
};
