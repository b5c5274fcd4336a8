import type { SessionCheck } from '../../plugins/auth-context.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { listTotals, sumsRowsWhere } from '../../db/hourly-totals.ts';
import { merchants, recharges } from '../../db/schema/index.ts';
import { listPage, newestFirst } from '../../db/keyset.ts';
import type { Position } from '../../lib/cursor.ts';

export type RechargeRow = typeof recharges.$inferSelect;

export type RechargeFilter = {
  merchantId: number;
  rechargeNo?: string;
  status?: string;
  network?: string;
  from?: Date;
  to?: Date;
  /** An export's snapshot: rows up to this id. */
  maxId?: number;
};

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

  page: (db: DbOrTx, filter: RechargeFilter, limit: number, position: Position) =>
    listPage<typeof recharges.$inferSelect>(
      db,
      recharges,
      {
        merchantId: filter.merchantId,
        equal: {
          rechargeNo: { column: recharges.rechargeNo, value: filter.rechargeNo },
          status: { column: recharges.status, value: filter.status },
          network: { column: recharges.network, value: filter.network },
        },
        from: filter.from,
        to: filter.to,
        maxId: filter.maxId,
      },
      limit,
      position,
    ),

  /** Count, amount and credited amount of the whole filter, from list_hourly (DESIGN 8). */
  totals: async (db: DbOrTx, filter: RechargeFilter, session?: SessionCheck) => {
    // The rows' own values; listTotals adds merchantId, status and facet.
    const values = {
      rechargeNo: filter.rechargeNo || undefined,
      status: filter.status || undefined,
      network: filter.network || undefined,
      maxId: filter.maxId,
    };
    const t = await listTotals(
      db,
      'recharge',
      {
        ...filter,
        facet: filter.network,
        rowsOnly: Boolean(filter.rechargeNo) || filter.maxId !== undefined,
      },
      {
        values,
        select: (from, to) => sql`
        select count(*) as rows, coalesce(sum(${recharges.amountMinor}), 0) as a,
               coalesce(sum(${recharges.creditedMinor}), 0) as b, 0 as c
          from ${recharges}
          where ${sumsRowsWhere(recharges, values, { rechargeNo: recharges.rechargeNo, status: recharges.status, network: recharges.network }, from, to)}`,
      },
      session,
    );
    return { count: t.count, amountMinor: t.a, creditedMinor: t.b };
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
