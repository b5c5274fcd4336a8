import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { merchants, recharges } from '../../db/schema/index.ts';
import { newestFirst } from '../lists/index.ts';

export type RechargeRow = typeof recharges.$inferSelect;

export const rechargesRepository = {
  insert: async (tx: Tx, row: typeof recharges.$inferInsert): Promise<RechargeRow> => {
    const [saved] = await tx.insert(recharges).values(row).returning();
    return saved;
  },

  findByNo: async (db: DbOrTx, merchantId: number, rechargeNo: string) => {
    const [row] = await db
      .select()
      .from(recharges)
      .where(and(eq(recharges.merchantId, merchantId), eq(recharges.rechargeNo, rechargeNo)));
    return row;
  },

  /** Any merchant's (the operator API). */
  findAnyByNo: async (db: DbOrTx, rechargeNo: string) => {
    const [row] = await db
      .select({ recharge: recharges, merchantNo: merchants.no })
      .from(recharges)
      .innerJoin(merchants, eq(merchants.id, recharges.merchantId))
      .where(eq(recharges.rechargeNo, rechargeNo));
    return row;
  },

  /** The review decision, only from pending_review: a racing decision finds nothing and changes nothing. */
  decide: async (
    tx: Tx,
    id: number,
    set: Partial<typeof recharges.$inferInsert> & { status: 'approved' | 'rejected' },
  ): Promise<RechargeRow | undefined> => {
    const [row] = await tx
      .update(recharges)
      .set(set)
      .where(and(eq(recharges.id, id), eq(recharges.status, 'pending_review')))
      .returning();
    return row;
  },

  /** The operator's queue: newest first, any merchant or one, any status or one. */
  listForOps: (db: DbOrTx, filter: { merchantId?: number; status?: string; limit: number }) =>
    db
      .select({ recharge: recharges, merchantNo: merchants.no })
      .from(recharges)
      .innerJoin(merchants, eq(merchants.id, recharges.merchantId))
      .where(
        and(
          filter.merchantId !== undefined ? eq(recharges.merchantId, filter.merchantId) : undefined,
          filter.status ? eq(recharges.status, filter.status) : undefined,
        ),
      )
      .orderBy(...newestFirst(recharges.createdAt, recharges.id))
      .limit(filter.limit),
};
