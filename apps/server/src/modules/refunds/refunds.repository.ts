import { and, asc, eq, gte, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { channels, collections, merchants, refunds } from '../../db/schema/index.ts';

export type RefundRow = typeof refunds.$inferSelect;
export type NewRefund = typeof refunds.$inferInsert;

/** SQL of refunds (DESIGN 14): scoped by merchant wherever the caller is a merchant. */
export const refundsRepository = {
  /** The new refund, or undefined when the merchant's out_refund_no is taken (nothing written). */
  insert: async (tx: Tx, values: NewRefund): Promise<RefundRow | undefined> => {
    const [row] = await tx
      .insert(refunds)
      .values(values)
      .onConflictDoNothing({ target: [refunds.merchantId, refunds.outRefundNo] })
      .returning();
    return row;
  },

  findOfMerchant: async (
    db: DbOrTx,
    merchantId: number,
    ref: { refundNo?: string; outRefundNo?: string },
  ) => {
    const number =
      ref.refundNo !== undefined
        ? eq(refunds.refundNo, ref.refundNo)
        : ref.outRefundNo !== undefined
          ? eq(refunds.outRefundNo, ref.outRefundNo)
          : undefined;
    if (!number) return undefined;
    const [row] = await db
      .select()
      .from(refunds)
      .where(and(eq(refunds.merchantId, merchantId), number));
    return row;
  },

  /** Any merchant's refund by its number (its channel's jobs and the operator), with its order's numbers. */
  findAnyByRefundNo: async (db: DbOrTx, refundNo: string) => {
    const [row] = await db
      .select({
        refund: refunds,
        tradeNo: collections.tradeNo,
        collectionRef: collections.channelRef,
        notifyUrl: collections.notifyUrl,
      })
      .from(refunds)
      .innerJoin(collections, eq(collections.id, refunds.collectionId))
      .where(eq(refunds.refundNo, refundNo));
    return row;
  },

  /** What a refund of the order may take, as the caller's transaction sees it. */
  orderState: async (tx: Tx, collectionId: number) => {
    const [row] = await tx
      .select({
        status: collections.status,
        amountMinor: collections.amountMinor,
        refundedMinor: collections.refundedMinor,
        currency: collections.currency,
      })
      .from(collections)
      .where(eq(collections.id, collectionId));
    return row;
  },

  /** The refund moved from `from` (a racing change makes it answer undefined). */
  transition: async (tx: Tx, id: number, from: string, set: Partial<NewRefund>) => {
    const [row] = await tx
      .update(refunds)
      .set(set)
      .where(and(eq(refunds.id, id), eq(refunds.status, from)))
      .returning();
    return row;
  },

  /** Today's refunds that did not fail, off the list's index (a day of a merchant's refunds). */
  today: async (db: DbOrTx, merchantId: number, from: Date, to: Date) => {
    const [row] = await db
      .select({
        amountMinor: sql<string>`coalesce(sum(${refunds.amountMinor}), 0)::text`,
        count: sql<number>`count(*)::int`,
      })
      .from(refunds)
      .where(
        and(
          eq(refunds.merchantId, merchantId),
          gte(refunds.createdAt, from),
          lt(refunds.createdAt, to),
          ne(refunds.status, 'failed'),
        ),
      );
    return { amountMinor: BigInt(row?.amountMinor ?? '0'), count: row?.count ?? 0 };
  },

  /**
   * Refunds in processing whose channel's provider is one of `providers` (the operator's queue; with
   * `before`, those created before it: the housekeeping sweep), oldest first.
   */
  processingOn: async (db: DbOrTx, providers: readonly string[], limit: number, before?: Date) => {
    if (providers.length === 0) return [];
    return db
      .select({ refund: refunds, merchantNo: merchants.no, provider: channels.provider })
      .from(refunds)
      .innerJoin(channels, eq(channels.id, refunds.channelId))
      .innerJoin(merchants, eq(merchants.id, refunds.merchantId))
      .where(
        and(
          eq(refunds.status, 'processing'),
          before ? lt(refunds.createdAt, before) : undefined,
          sql`${channels.provider} = any(${sql.param([...providers])}::text[])`,
        ),
      )
      .orderBy(asc(refunds.createdAt), asc(refunds.id))
      .limit(limit);
  },
};
