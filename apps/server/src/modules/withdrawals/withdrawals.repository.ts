import type { SessionCheck } from '../../plugins/auth-context.ts';
import { and, eq, gte, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { listTotals, sumsRowsWhere } from '../../db/hourly-totals.ts';
import { merchants, withdrawals } from '../../db/schema/index.ts';
import { listPage, newestFirst } from '../../db/keyset.ts';
import type { Position } from '../../lib/cursor.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

export type WithdrawalFilter = {
  merchantId: number;
  withdrawalNo?: string;
  status?: string;
  network?: string;
  from?: Date;
  to?: Date;
  /** An export's snapshot: rows up to this id. */
  maxId?: number;
};

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
  transition: async (
    tx: Tx,
    id: number,
    from: string,
    set: Partial<typeof withdrawals.$inferInsert> & { status: string },
  ): Promise<WithdrawalRow | undefined> => {
    const [row] = await tx
      .update(withdrawals)
      .set(set)
      .where(and(eq(withdrawals.id, id), eq(withdrawals.status, from)))
      .returning();
    return row;
  },

  page: (db: DbOrTx, filter: WithdrawalFilter, limit: number, position: Position) =>
    listPage<typeof withdrawals.$inferSelect>(
      db,
      withdrawals,
      {
        merchantId: filter.merchantId,
        equal: {
          withdrawalNo: { column: withdrawals.withdrawalNo, value: filter.withdrawalNo },
          status: { column: withdrawals.status, value: filter.status },
          network: { column: withdrawals.network, value: filter.network },
        },
        from: filter.from,
        to: filter.to,
        maxId: filter.maxId,
      },
      limit,
      position,
    ),

  /** Count, USDT amount and fee, and the local total of the whole filter, from list_hourly (DESIGN 8). */
  totals: async (db: DbOrTx, filter: WithdrawalFilter, session?: SessionCheck) => {
    // The rows' own values; listTotals adds merchantId, status and facet.
    const values = {
      withdrawalNo: filter.withdrawalNo || undefined,
      status: filter.status || undefined,
      network: filter.network || undefined,
      maxId: filter.maxId,
    };
    const t = await listTotals(
      db,
      'withdrawal',
      {
        ...filter,
        facet: filter.network,
        rowsOnly: Boolean(filter.withdrawalNo) || filter.maxId !== undefined,
      },
      {
        values,
        select: (from, to) => sql`
        select count(*) as rows, coalesce(sum(${withdrawals.amountUsdtMinor}), 0) as a,
               coalesce(sum(${withdrawals.feeUsdtMinor}), 0) as b,
               coalesce(sum(${withdrawals.amountLocalMinor} + ${withdrawals.feeLocalMinor}), 0) as c
          from ${withdrawals}
          where ${sumsRowsWhere(withdrawals, values, { withdrawalNo: withdrawals.withdrawalNo, status: withdrawals.status, network: withdrawals.network }, from, to)}`,
      },
      session,
    );
    return { count: t.count, amountMinor: t.a, feeMinor: t.b, localTotalMinor: t.c };
  },

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
