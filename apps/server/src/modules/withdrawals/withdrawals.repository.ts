import { and, eq, gte, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { merchants, withdrawals } from '../../db/schema/index.ts';
import { newestFirst } from '../lists/index.ts';
import { transitionFrom } from '../../db/transition.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

export const withdrawalsRepository = {
  insert: async (tx: Tx, row: typeof withdrawals.$inferInsert): Promise<WithdrawalRow> => {
    const [saved] = await tx.insert(withdrawals).values(row).returning();
    return saved;
  },

  setHold: async (tx: Tx, id: number, holdId: number) => {
    await tx.update(withdrawals).set({ holdId }).where(eq(withdrawals.id, id));
  },

  /**
   * Queues the merchant's withdrawal requests one behind the other until the transaction ends, so two at
   * once cannot both take the day's last free withdrawal.
   */
  lockMerchantRequests: async (tx: Tx, merchantId: number) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7302, ${merchantId}::int)`);
  },

  /** Free withdrawals in [from, to) that still count (a rejected one gives its free slot back). */
  countFree: async (db: DbOrTx, merchantId: number, from: Date, to: Date): Promise<number> => {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(withdrawals)
      .where(
        and(
          eq(withdrawals.merchantId, merchantId),
          eq(withdrawals.isFree, true),
          ne(withdrawals.status, 'rejected'),
          gte(withdrawals.createdAt, from),
          lt(withdrawals.createdAt, to),
        ),
      );
    return Number(row?.n ?? 0);
  },

  findByNo: async (db: DbOrTx, merchantId: number, no: string) => {
    const [row] = await db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.merchantId, merchantId), eq(withdrawals.withdrawalNo, no)));
    return row;
  },

  /** The operator's view: any merchant's, with the merchant's number. */
  findAnyByNo: async (db: DbOrTx, no: string) => {
    const [row] = await db
      .select({ withdrawal: withdrawals, merchantNo: merchants.no })
      .from(withdrawals)
      .innerJoin(merchants, eq(merchants.id, withdrawals.merchantId))
      .where(eq(withdrawals.withdrawalNo, no));
    return row;
  },

  findByTxHash: async (db: DbOrTx, txHash: string) => {
    const [row] = await db
      .select({ withdrawalNo: withdrawals.withdrawalNo })
      .from(withdrawals)
      .where(eq(withdrawals.txHash, txHash));
    return row;
  },

  /** A state change only from the expected state: a racing decision finds nothing and changes nothing. */
  transition: (
    tx: Tx,
    id: number,
    from: string,
    set: Partial<typeof withdrawals.$inferInsert> & { status: string },
  ) => transitionFrom(tx, withdrawals, id, from, set),

  /** The operator's list: newest first, every merchant's or one's, optionally one status. */
  listForOps: (db: DbOrTx, filter: { merchantId?: number; status?: string; limit: number }) =>
    db
      .select({ withdrawal: withdrawals, merchantNo: merchants.no })
      .from(withdrawals)
      .innerJoin(merchants, eq(merchants.id, withdrawals.merchantId))
      .where(
        and(
          filter.merchantId !== undefined ? eq(withdrawals.merchantId, filter.merchantId) : undefined,
          filter.status ? eq(withdrawals.status, filter.status) : undefined,
        ),
      )
      .orderBy(...newestFirst(withdrawals.createdAt, withdrawals.id))
      .limit(filter.limit),
};
