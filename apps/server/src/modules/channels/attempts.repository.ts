import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { AttemptOrderKind, AttemptOutcome } from '@paydesk/shared/channels/attempts.schemas.ts';
import { type DbOrTx, queryText, type Tx } from '../../db/client.ts';
import { channelAttempts, channels } from '../../db/schema/index.ts';
import { nextAttemptInsert } from './attempts.sql.ts';

export type AttemptRow = typeof channelAttempts.$inferSelect;

export const attemptsRepository = {
  /**
   * How the order's latest attempt ended (or where it stands), in the transaction of the order's change.
   * Undefined when the order has no attempt (one inserted by hand, without its statement).
   */
  recordOutcome: async (
    tx: Tx,
    order: { kind: AttemptOrderKind; id: number; merchantId: number },
    set: {
      outcome: AttemptOutcome;
      at: Date;
      channelRef?: string | null;
      answer?: Record<string, unknown>;
      /** The provider's failure was the channel's fault (its adapter's isChannelFault); kept once set. */
      channelFault?: boolean;
    },
  ): Promise<AttemptRow | undefined> => {
    const [row] = await tx
      .update(channelAttempts)
      .set({
        outcome: set.outcome,
        updatedAt: set.at,
        ...(set.channelRef ? { channelRef: set.channelRef } : {}),
        ...(set.answer ? { answerSummary: set.answer } : {}),
        ...(set.channelFault ? { channelFault: true } : {}),
      })
      .where(
        eq(
          channelAttempts.id,
          sql`(select max(a.id) from channel_attempts a
                where a.merchant_id = ${order.merchantId} and a.order_kind = ${order.kind} and a.order_id = ${order.id})`,
        ),
      )
      .returning();
    return row;
  },

  /** recordOutcome for many orders of one merchant and kind at once (their latest attempts). */
  recordOutcomes: async (
    tx: Tx,
    order: { kind: AttemptOrderKind; merchantId: number },
    items: { orderId: number; channelRef: string }[],
    set: { outcome: AttemptOutcome; at: Date },
  ): Promise<void> => {
    if (items.length === 0) return;
    await tx.execute(sql`
      update channel_attempts a
         set outcome = ${set.outcome}, updated_at = ${set.at}, channel_ref = v.ref
        from (select unnest(${sql.param(items.map((i) => i.orderId))}::bigint[]) as order_id,
                     unnest(${sql.param(items.map((i) => i.channelRef))}::text[]) as ref) v
       where a.id = (select max(b.id) from channel_attempts b
                      where b.merchant_id = ${order.merchantId} and b.order_kind = ${order.kind}
                        and b.order_id = v.order_id)`);
  },

  /** An order's latest attempt (undefined: none). */
  latestOf: async (db: DbOrTx, merchantId: number, kind: AttemptOrderKind, orderId: number) => {
    const [row] = await db
      .select()
      .from(channelAttempts)
      .where(
        and(
          eq(channelAttempts.merchantId, merchantId),
          eq(channelAttempts.orderKind, kind),
          eq(channelAttempts.orderId, orderId),
        ),
      )
      .orderBy(desc(channelAttempts.id))
      .limit(1);
    return row;
  },

  /** The channels an order has been tried on (its attempts'). */
  channelsTried: async (db: DbOrTx, merchantId: number, kind: AttemptOrderKind, orderId: number) => {
    const rows = await db
      .selectDistinct({ channelId: channelAttempts.channelId })
      .from(channelAttempts)
      .where(
        and(
          eq(channelAttempts.merchantId, merchantId),
          eq(channelAttempts.orderKind, kind),
          eq(channelAttempts.orderId, orderId),
        ),
      );
    return rows.map((row) => row.channelId);
  },

  /**
   * A new attempt of an order on the channel it now has (a failover: the order keeps its trade_no),
   * written as the order's own statement writes its first one.
   */
  insertForOrder: async (tx: Tx, kind: AttemptOrderKind, orderId: number, at: Date): Promise<void> => {
    await queryText(tx, nextAttemptInsert(kind), [orderId, at.toISOString()]);
  },

  /** An order's attempts, oldest first, with their channel's code; only the merchant's own. */
  listOf: (db: DbOrTx, merchantId: number, kind: AttemptOrderKind, orderId: number) =>
    db
      .select({
        channelCode: channels.code,
        provider: channelAttempts.provider,
        channelRef: channelAttempts.channelRef,
        outcome: channelAttempts.outcome,
        createdAt: channelAttempts.createdAt,
        updatedAt: channelAttempts.updatedAt,
      })
      .from(channelAttempts)
      .innerJoin(channels, eq(channels.id, channelAttempts.channelId))
      .where(
        and(
          eq(channelAttempts.merchantId, merchantId),
          eq(channelAttempts.orderKind, kind),
          eq(channelAttempts.orderId, orderId),
        ),
      )
      .orderBy(asc(channelAttempts.id)),
};
