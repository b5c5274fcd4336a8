import { and, eq, gte, lt, notInArray, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, queryRows, type Tx } from '../../db/client.ts';
import { insertReturning } from '../../db/rows.ts';
import { idempotencyKeys, payouts } from '../../db/schema/index.ts';
import { afterCursor, newestFirst } from '../../db/keyset.ts';
import { orderDaySeries, type OrderFilter, orderTotals, orderWhere } from '../../db/order-totals.ts';
import type { Cursor } from '../../lib/cursor.ts';

export type PayoutRow = typeof payouts.$inferSelect;

export type PayoutFilter = OrderFilter;

const where = (f: PayoutFilter) => orderWhere(payouts, f);

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export const payoutsRepository = {
  insert: (tx: Tx, row: typeof payouts.$inferInsert): Promise<PayoutRow | undefined> =>
    insertReturning(tx, payouts, row, 'on conflict (merchant_id, out_trade_no) do nothing'),

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
      .orderBy(...newestFirst(payouts.createdAt, payouts.id))
      .limit(limit)
      .offset(position.cursor ? 0 : position.offset),

  /** Count, amount and fee of the whole filter, from the hourly rollup (db/order-totals.ts). */
  totals: (db: DbOrTx, filter: PayoutFilter) => orderTotals(db, 'payout', payouts, filter),

  /** Orders created on each local day, counted and summed by status (the Dashboard's charts). */
  daySeries: (db: DbOrTx, merchantId: number, days: { day: string; start: Date; end: Date }[]) =>
    orderDaySeries(db, payouts, merchantId, days),

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

  // ---- Idempotency keys: stored in the transaction that creates the payout, so a key has an answer
  // exactly when its payout (or its refusal) committed; a crash in between leaves neither.

  /** The key's stored answer within its 24 hours, if any. */
  findKey: async (db: DbOrTx, merchantId: number, key: string, at: Date) => {
    const [row] = await preparedOnce(db, 'idempotency_key', (on) =>
      on
        .select()
        .from(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.merchantId, sql.placeholder('merchantId')),
            eq(idempotencyKeys.key, sql.placeholder('key')),
            gte(idempotencyKeys.createdAt, sql`${sql.placeholder('since')}::timestamptz`),
          ),
        )
        .prepare('idempotency_key'),
    ).execute({ merchantId, key, since: new Date(at.getTime() - IDEMPOTENCY_TTL_MS).toISOString() });
    return row;
  },

  /**
   * Takes the key's lock for the rest of the transaction, or answers false at once while another
   * transaction (the first request with this key, still running) holds it.
   */
  lockKey: async (tx: Tx, merchantId: number, key: string): Promise<boolean> => {
    const [row] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(hashtextextended(${`${merchantId}:${key}`}, 0)) as locked`,
    );
    return row?.locked === true;
  },

  /** Keeps the key's answer; a row of the same key older than 24 hours is replaced. */
  storeKey: async (
    db: DbOrTx,
    input: {
      merchantId: number;
      key: string;
      scope: string;
      requestHash: string;
      responseStatus: number;
      responseBody: string;
      at: Date;
    },
  ) => {
    const { at, ...row } = input;
    const fresh = { ...row, status: 'done', createdAt: at };
    await db
      .insert(idempotencyKeys)
      .values(fresh)
      .onConflictDoUpdate({
        target: [idempotencyKeys.merchantId, idempotencyKeys.key],
        set: fresh,
        setWhere: lt(idempotencyKeys.createdAt, new Date(at.getTime() - IDEMPOTENCY_TTL_MS)),
      });
  },

  deleteExpiredKeys: async (db: DbOrTx, at: Date) => {
    await db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(at.getTime() - IDEMPOTENCY_TTL_MS)));
  },
};
