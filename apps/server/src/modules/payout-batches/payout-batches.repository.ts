import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { channels, payouts } from '../../db/schema/index.ts';

export type BatchPayoutRow = typeof payouts.$inferSelect;

export const payoutBatchesRepository = {
  /** The merchant row's payout channel of that code. */
  channel: async (db: DbOrTx, merchantId: number, code: string) => {
    const [row] = await db
      .select()
      .from(channels)
      .where(and(eq(channels.merchantId, merchantId), eq(channels.kind, 'payout'), eq(channels.code, code)));
    return row;
  },

  channelById: async (db: DbOrTx, id: number) => {
    const [row] = await db.select().from(channels).where(eq(channels.id, id));
    return row;
  },

  /** The channel's payouts waiting in the operator's queue, oldest first. */
  pending: (db: DbOrTx, channelId: number, limit: number) =>
    db
      .select()
      .from(payouts)
      .where(and(eq(payouts.channelId, channelId), eq(payouts.status, 'pending')))
      .orderBy(asc(payouts.createdAt), asc(payouts.id))
      .limit(limit),

  /** The payouts a batch sent (their channel_ref is its number). */
  ofBatch: (db: DbOrTx, channelId: number, batchNo: string) =>
    db
      .select()
      .from(payouts)
      .where(and(eq(payouts.channelId, channelId), eq(payouts.channelRef, batchNo)))
      .orderBy(asc(payouts.createdAt), asc(payouts.id)),

  byTradeNo: async (db: DbOrTx, tradeNo: string) => {
    const [row] = await db.select().from(payouts).where(eq(payouts.tradeNo, tradeNo));
    return row;
  },
};
