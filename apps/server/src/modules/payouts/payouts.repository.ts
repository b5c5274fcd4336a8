import { and, desc, eq, gte, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { idempotencyKeys, payouts } from '../../db/schema/index.ts';
import { afterCursor } from '../../db/keyset.ts';
import type { Cursor } from '../../lib/cursor.ts';

export type PayoutRow = typeof payouts.$inferSelect;

export type PayoutFilter = {
  merchantId: number;
  tradeNo?: string;
  outTradeNo?: string;
  status?: string;
  from?: Date;
  to?: Date;
};

function where(f: PayoutFilter): SQL | undefined {
  return and(
    eq(payouts.merchantId, f.merchantId),
    f.tradeNo ? eq(payouts.tradeNo, f.tradeNo) : undefined,
    f.outTradeNo ? eq(payouts.outTradeNo, f.outTradeNo) : undefined,
    f.status ? eq(payouts.status, f.status) : undefined,
    f.from ? gte(payouts.createdAt, f.from) : undefined,
    f.to ? lt(payouts.createdAt, f.to) : undefined,
  );
}

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** An in-flight key whose request died (crash) may be taken over after this. */
export const IN_FLIGHT_TAKEOVER_MS = 60 * 1000;

export const payoutsRepository = {
  insert: async (tx: Tx, row: typeof payouts.$inferInsert): Promise<PayoutRow | undefined> => {
    const [saved] = await tx
      .insert(payouts)
      .values(row)
      .onConflictDoNothing({ target: [payouts.merchantId, payouts.outTradeNo] })
      .returning();
    return saved;
  },

  setHold: async (tx: Tx, id: number, holdId: number) => {
    await tx.update(payouts).set({ holdId }).where(eq(payouts.id, id));
  },

  findByTradeNo: async (db: DbOrTx, merchantId: number, tradeNo: string) => {
    const [row] = await db
      .select()
      .from(payouts)
      .where(and(eq(payouts.merchantId, merchantId), eq(payouts.tradeNo, tradeNo)));
    return row;
  },

  findByOutTradeNo: async (db: DbOrTx, merchantId: number, outTradeNo: string) => {
    const [row] = await db
      .select()
      .from(payouts)
      .where(and(eq(payouts.merchantId, merchantId), eq(payouts.outTradeNo, outTradeNo)));
    return row;
  },

  findAnyByTradeNo: async (db: DbOrTx, tradeNo: string) => {
    const [row] = await db.select().from(payouts).where(eq(payouts.tradeNo, tradeNo));
    return row;
  },

  /** A state change only from the expected state: a racing change finds nothing and changes nothing. */
  transition: async (
    tx: Tx,
    id: number,
    from: string,
    set: Partial<typeof payouts.$inferInsert> & { status: string },
  ): Promise<PayoutRow | undefined> => {
    const [row] = await tx
      .update(payouts)
      .set(set)
      .where(and(eq(payouts.id, id), eq(payouts.status, from)))
      .returning();
    return row;
  },

  /** A payout of this amount to this account in the window that did not fail (the near-duplicate rule). */
  recentSimilar: async (
    db: DbOrTx,
    merchantId: number,
    accountNo: string,
    amountMinor: bigint,
    since: Date,
  ) => {
    const [row] = await db
      .select({ tradeNo: payouts.tradeNo })
      .from(payouts)
      .where(
        and(
          eq(payouts.merchantId, merchantId),
          eq(payouts.accountNo, accountNo),
          eq(payouts.amountMinor, amountMinor),
          gte(payouts.createdAt, since),
          notInArray(payouts.status, ['failed', 'cancelled', 'rejected']),
        ),
      )
      .limit(1);
    return row;
  },

  page: (db: DbOrTx, filter: PayoutFilter, limit: number, position: { cursor?: Cursor; offset: number }) =>
    db
      .select()
      .from(payouts)
      .where(and(where(filter), afterCursor(payouts.createdAt, payouts.id, position.cursor)))
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(limit)
      .offset(position.cursor ? 0 : position.offset),

  totals: async (db: DbOrTx, filter: PayoutFilter) => {
    const [row] = await db
      .select({
        count: sql<number>`count(*)::int`,
        amount: sql<string>`coalesce(sum(${payouts.amountMinor}), 0)::text`,
        fee: sql<string>`coalesce(sum(${payouts.feeMinor}), 0)::text`,
      })
      .from(payouts)
      .where(where(filter));
    return { count: Number(row.count), amountMinor: BigInt(row.amount), feeMinor: BigInt(row.fee) };
  },

  /** Today's figures: payouts created in [from, to); paid = succeeded among them. */
  dayFigures: async (db: DbOrTx, merchantId: number, from: Date, to: Date) => {
    const [row] = await db
      .select({
        orders: sql<number>`count(*)::int`,
        paid: sql<number>`count(*) filter (where ${payouts.status} in ('success', 'refund_received'))::int`,
        finished: sql<number>`count(*) filter (where ${payouts.status} not in ('pending', 'processing'))::int`,
        paidAmount: sql<string>`coalesce(sum(${payouts.amountMinor}) filter (where ${payouts.status} in ('success', 'refund_received')), 0)::text`,
      })
      .from(payouts)
      .where(
        and(eq(payouts.merchantId, merchantId), gte(payouts.createdAt, from), lt(payouts.createdAt, to)),
      );
    return {
      orders: Number(row.orders),
      paid: Number(row.paid),
      finished: Number(row.finished),
      paidAmountMinor: BigInt(row.paidAmount),
    };
  },

  // ---- Idempotency keys

  /**
   * Claims the key for a new request: 'claimed', or the row already there (the same key within 24 h). An
   * expired row, or an in-flight one whose request died, is taken over.
   */
  claimKey: async (
    db: DbOrTx,
    input: { merchantId: number; key: string; scope: string; requestHash: string; at: Date },
  ): Promise<'claimed' | typeof idempotencyKeys.$inferSelect> => {
    const rows = await db
      .insert(idempotencyKeys)
      .values({ ...input, status: 'in_flight', createdAt: input.at })
      .onConflictDoUpdate({
        target: [idempotencyKeys.merchantId, idempotencyKeys.key],
        set: {
          scope: input.scope,
          requestHash: input.requestHash,
          status: 'in_flight',
          responseStatus: null,
          responseBody: null,
          createdAt: input.at,
        },
        setWhere: sql`${idempotencyKeys.createdAt} < ${new Date(input.at.getTime() - IDEMPOTENCY_TTL_MS)}
          or (${idempotencyKeys.status} = 'in_flight' and ${idempotencyKeys.createdAt} < ${new Date(input.at.getTime() - IN_FLIGHT_TAKEOVER_MS)})`,
      })
      .returning({ key: idempotencyKeys.key });
    if (rows.length === 1) return 'claimed';
    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.merchantId, input.merchantId), eq(idempotencyKeys.key, input.key)));
    return existing ?? 'claimed';
  },

  completeKey: async (db: DbOrTx, merchantId: number, key: string, status: number, body: string) => {
    await db
      .update(idempotencyKeys)
      .set({ status: 'done', responseStatus: status, responseBody: body })
      .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)));
  },

  releaseKey: async (db: DbOrTx, merchantId: number, key: string) => {
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key)));
  },

  deleteExpiredKeys: async (db: DbOrTx, at: Date) => {
    await db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(at.getTime() - IDEMPOTENCY_TTL_MS)));
  },
};
