import { noRiskRulesWhere } from '../../db/risk-rules.ts';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { batchersByShape, batchWroteNothing } from '../../db/batcher.ts';
import { type Db, type DbOrTx, queryText, textPerShape, type Tx } from '../../db/client.ts';
import { columnList, driverValues, givenKeys, jsonColumns, recordsetColumns, rowOf } from '../../db/rows.ts';
import { collections, merchants } from '../../db/schema/index.ts';
import { attemptInsertCte, type ChannelRow, rememberedChannel } from '../channels/index.ts';
import { nonceClaim, type NonceClaimSql } from '../gateway/index.ts';
import {
  insertOrder,
  moveOrderToChannel,
  orderByTradeNo,
  orderDashboard,
  orderOfMerchant,
  orderOfMerchantTogether,
  type OrderRollupMoves,
} from '../lists/index.ts';

export type CollectionRow = typeof collections.$inferSelect;
export type NewCollection = typeof collections.$inferInsert;

/**
 * insertOnChannel's statement for one set of given columns, written once: the new order's values are
 * $1..$n (typed by their columns), then the channel as remembered, then (insertOnChannelClaiming) the
 * nonce claim's parameters.
 */
const insertOnChannelText = textPerShape(
  writeInsertOnChannelText,
  (given, routed, claim?) => `${given.join(',')}|${routed}|${claim ? 'claim' : ''}`,
);
function writeInsertOnChannelText(given: string[], routed: boolean, claim?: NonceClaimSql): string {
  const { names, params } = columnList(collections, given);
  const insert = `insert into collections (${names})
    select ${params}
     where exists (
       select 1 from channels c where ${rememberedChannel.where('collection', given.length, routed)}
          and ${noRiskRulesWhere('collection', 'c.merchant_id')})
       ${claim ? 'and exists (select 1 from n)' : ''}
    on conflict (merchant_id, out_trade_no) do nothing
    returning *`;
  // The order's attempt on the channel is written by the same statement (channel_attempts).
  return claim
    ? `with ${claim.ctes(given.length + rememberedChannel.paramCount)}, ins as (${insert}), ${attemptInsertCte('collection', 'ins')}
       select ${nonceClaim.answers}, ins.*
         from (select 1) as one left join ins on true`
    : `with ins as (${insert}), ${attemptInsertCte('collection', 'ins')} select * from ins`;
}

/** One call of insertOnChannelClaiming, and what it answers. */
type Claiming = { row: NewCollection; seen: ChannelRow; routed: boolean; claim: NonceClaimSql };
type ClaimingAnswer = { current: boolean; claimed: boolean; row: CollectionRow | undefined };

const claimingAnswer = (saved: Record<string, unknown>): ClaimingAnswer =>
  nonceClaim.answerOf<CollectionRow>(collections, saved);

async function insertOneClaiming(db: DbOrTx, { row, seen, routed, claim }: Claiming) {
  const given = givenKeys(row);
  const [saved] = await queryText<Record<string, unknown>>(db, insertOnChannelText(given, routed, claim), [
    ...driverValues(collections, row, given),
    ...rememberedChannel.params(seen),
    ...claim.params,
  ]);
  return claimingAnswer(saved);
}

/**
 * insertOnChannelClaiming for many calls in one statement: each input row (`r`, one JSON object per
 * call) carries the order's columns, the channel as remembered (c1..c13) and the nonce's claim
 * (k1..k11); each call's order is inserted only once its nonce is claimed and while its channel reads as
 * remembered, exactly as its own statement would. One answer row per call, in the calls' order.
 */
const insertManyClaimingText = textPerShape(writeInsertManyClaimingText, (given) => given.join(','));
function writeInsertManyClaimingText(given: string[]): string {
  const { names, definitions } = recordsetColumns(collections, given);
  return `with r as (
      select * from json_to_recordset($1::json)
        as r(i integer, by_routing boolean, ${definitions}, ${rememberedChannel.columns}, ${nonceClaim.columns})
    ), ${nonceClaim.batchCtes('r')}, ins as (
      insert into collections (${names.join(', ')})
      select ${names.map((name) => `r.${name}`).join(', ')}
        from r
       where ${nonceClaim.claimedBy('r')}
         and exists (select 1 from channels c where ${rememberedChannel.batchWhere('collection', 'r', 'r.by_routing')})
         and ${noRiskRulesWhere('collection', 'r.merchant_id')}
      on conflict (merchant_id, out_trade_no) do nothing
      returning *
    ), ${attemptInsertCte('collection', 'ins')}
    select ${nonceClaim.batchAnswers('r')}, ins.*
      from r left join ins on ins.trade_no = r.trade_no
     order by r.i`;
}

async function insertManyClaiming(db: Db, calls: Claiming[]): Promise<ClaimingAnswer[]> {
  const given = givenKeys(calls[0].row);
  const input = calls.map(({ row, seen, routed, claim }, i) => ({
    i,
    // Not `routed`: that is the order's own column (in the recordset too).
    by_routing: routed,
    ...jsonColumns(collections, row, given),
    ...rememberedChannel.row(seen),
    ...nonceClaim.row(claim),
  }));
  const rows = await queryText<Record<string, unknown>>(db, insertManyClaimingText(given), [
    JSON.stringify(input),
  ]);
  return rows.map(claimingAnswer);
}

/** Calls of one set of given columns share a statement. */
const claimingBatcher = batchersByShape((db: Db) => ({
  one: (call: Claiming) => insertOneClaiming(db, call),
  many: (calls: Claiming[]) => insertManyClaiming(db, calls),
  alone: batchWroteNothing(),
  keysOf: (call: Claiming) => [call.claim.key, `order:${call.row.merchantId}:${call.row.outTradeNo}`],
}));

export const collectionsRepository = {
  /**
   * The new order and its attempt on its channel (one statement), or undefined when the merchant already
   * used this out_trade_no.
   */
  insert: (db: DbOrTx, row: NewCollection) => insertOrder(db, collections, 'collection', row),

  /**
   * A new order in one statement on a channel the caller remembers: inserted only while the channel still
   * reads exactly as remembered (open, the same terms) and, when the call named no channel (`routed`: it
   * was chosen from the merchant's routing table), while no channel of the kind changed since. Undefined when it does not, or when the merchant already used the
   * out_trade_no: the caller reads the channel again and decides.
   */
  insertOnChannel: async (
    db: DbOrTx,
    row: NewCollection,
    seen: ChannelRow,
    routed: boolean,
  ): Promise<CollectionRow | undefined> => {
    const given = givenKeys(row);
    const [saved] = await queryText<Record<string, unknown>>(db, insertOnChannelText(given, routed), [
      ...driverValues(collections, row, given),
      ...rememberedChannel.params(seen),
    ]);
    return saved ? rowOf<CollectionRow>(collections, saved) : undefined;
  },

  /**
   * insertOnChannel and a gateway call's nonce claim in one statement (one round trip, one commit): the
   * order is inserted only once the nonce is claimed. `current` false: the remembered access key is stale
   * and nothing was written; `claimed` false: the nonce was used already; `row` undefined with the nonce
   * claimed: as insertOnChannel's undefined.
   */
  insertOnChannelClaiming: (
    db: Db,
    row: NewCollection,
    seen: ChannelRow,
    routed: boolean,
    claim: NonceClaimSql,
  ): Promise<ClaimingAnswer> =>
    // Calls that arrive together share one statement and one commit (group commit, createBatcher).
    claimingBatcher(db, givenKeys(row).join(',')).submit({ row, seen, routed, claim }),

  /** The merchant's order by our number or its own (another merchant's reads as none). */
  findOfMerchant: (db: DbOrTx, merchantId: number, ref: { tradeNo?: string; outTradeNo?: string }) =>
    orderOfMerchant(db, collections, merchantId, ref),

  /** findOfMerchant by our number on the pool: reads that arrive together share one statement. */
  findOfMerchantTogether: (db: Db, merchantId: number, tradeNo: string) =>
    orderOfMerchantTogether(db, collections, merchantId, tradeNo),

  merchantOf: async (db: DbOrTx, merchantId: number) => {
    const [row] = await db
      .select({ no: merchants.no, name: merchants.name, mode: merchants.mode })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    return row;
  },

  /** Unpaid orders past their expiry (their job was lost, or they were imported): oldest first. */
  overdue: async (db: DbOrTx, at: Date, limit: number): Promise<string[]> => {
    const rows = await db
      .select({ tradeNo: collections.tradeNo })
      .from(collections)
      .where(and(eq(collections.status, 'to_be_paid'), lt(collections.expiresAt, at)))
      .orderBy(asc(collections.expiresAt))
      .limit(limit);
    return rows.map((r) => r.tradeNo);
  },

  /** Any merchant's order by our number: the hosted sandbox page and the channel's jobs. */
  /**
   * A refund's amount taken from what a paid order can still give back (DESIGN 14): one conditional update
   * of the order's row, so racing refunds of one order queue on it and never pass its amount.
   */
  claimRefund: async (tx: Tx, merchantId: number, id: number, amountMinor: bigint) => {
    const [row] = await tx
      .update(collections)
      .set({ refundedMinor: sql`${collections.refundedMinor} + ${amountMinor}` })
      .where(
        and(
          eq(collections.id, id),
          eq(collections.merchantId, merchantId),
          eq(collections.status, 'paid'),
          sql`${collections.refundedMinor} + ${amountMinor} <= ${collections.amountMinor}`,
        ),
      )
      .returning({
        refundedMinor: collections.refundedMinor,
        tradeNo: collections.tradeNo,
        outTradeNo: collections.outTradeNo,
      });
    return row;
  },

  /** A failed refund's amount given back to what the order can refund. */
  giveBackRefund: async (tx: Tx, id: number, amountMinor: bigint) => {
    const [row] = await tx
      .update(collections)
      .set({ refundedMinor: sql`${collections.refundedMinor} - ${amountMinor}` })
      .where(and(eq(collections.id, id), sql`${collections.refundedMinor} >= ${amountMinor}`))
      .returning({ refundedMinor: collections.refundedMinor });
    return row;
  },

  findAnyByTradeNo: (db: DbOrTx, tradeNo: string) => orderByTradeNo(db, collections, tradeNo),

  /** An unpaid order the provider never had, moved to another channel (a failover, DESIGN 14). */
  moveToChannel: (
    tx: Tx,
    id: number,
    fromChannelId: number,
    set: { channelId: number; channelCode: string; payUrl: string },
  ) => {
    const unpaid = {
      channelId: fromChannelId,
      status: 'to_be_paid',
      also: sql`${collections.channelRef} is null`,
    };
    return moveOrderToChannel(tx, collections, id, unpaid, set);
  },

  /** An unpaid order's provider reference and provider page (a payment link made after the order). */
  setProviderLink: async (db: DbOrTx, tradeNo: string, channelRef: string, payUrl: string) => {
    await db
      .update(collections)
      .set({ channelRef, payUrl })
      .where(and(eq(collections.tradeNo, tradeNo), eq(collections.status, 'to_be_paid')));
  },

  /** Many unpaid orders paid at once (each with its channel reference); those no longer unpaid are left. */
  payMany: async (
    tx: Tx,
    items: { id: number; channelRef: string }[],
    at: Date,
    rollups: OrderRollupMoves,
  ): Promise<CollectionRow[]> => {
    if (items.length === 0) return [];
    const ids = sql.param(items.map((i) => i.id));
    const refs = sql.param(items.map((i) => i.channelRef));
    return rollups.standAside(tx, () =>
      tx
        .update(collections)
        .set({ status: 'paid', paidAt: at, channelRef: sql`v.ref` })
        .from(sql`(select unnest(${ids}::bigint[]) as id, unnest(${refs}::text[]) as ref) v`)
        .where(and(sql`${collections.id} = v.id`, eq(collections.status, 'to_be_paid')))
        .returning(),
    );
  },

  /** Orders of a channel by their numbers. */
  ofChannelByTradeNos: (db: DbOrTx, channelId: number, tradeNos: string[]) =>
    tradeNos.length === 0
      ? Promise.resolve([] as CollectionRow[])
      : db
          .select()
          .from(collections)
          .where(
            and(
              eq(collections.channelId, channelId),
              sql`${collections.tradeNo} = any(${sql.param(tradeNos)}::text[])`,
            ),
          ),

  /** A state change from to_be_paid only: a second, racing one finds nothing and changes nothing. */
  finish: async (
    tx: Tx,
    id: number,
    set: { status: 'paid' | 'failed' | 'closed'; at: Date; channelRef?: string },
    onlyExpiredBy?: Date,
  ): Promise<CollectionRow | undefined> => {
    const [row] = await tx
      .update(collections)
      .set({
        ...(set.status === 'paid'
          ? { status: 'paid', paidAt: set.at }
          : { status: set.status, finishedAt: set.at }),
        ...(set.channelRef === undefined ? {} : { channelRef: set.channelRef }),
      })
      .where(
        and(
          eq(collections.id, id),
          eq(collections.status, 'to_be_paid'),
          onlyExpiredBy ? sql`${collections.expiresAt} <= ${onlyExpiredBy}` : undefined,
        ),
      )
      .returning();
    return row;
  },

  /** The Dashboard's figures of collections: paid is `paid`, not finished yet is `to_be_paid`. */
  dashboard: (db: Db) => orderDashboard(db, collections, { paid: ['paid'], open: ['to_be_paid'] }),

  ofSettlement: (db: DbOrTx, merchantId: number, settlementId: number) =>
    db
      .select()
      .from(collections)
      .where(and(eq(collections.merchantId, merchantId), eq(collections.settlementId, settlementId)))
      .orderBy(asc(collections.paidAt), asc(collections.id)),

  /** Paid, unsettled orders of a channel paid before the cutoff, locked for this batch. */
  lockSettleable: (tx: Tx, channelId: number, cutoff: Date) =>
    tx
      .select({ id: collections.id, amountMinor: collections.amountMinor, feeMinor: collections.feeMinor })
      .from(collections)
      .where(
        and(
          eq(collections.channelId, channelId),
          eq(collections.status, 'paid'),
          eq(collections.settlementStatus, 'unsettled'),
          lt(collections.paidAt, cutoff),
        ),
      )
      .orderBy(asc(collections.id))
      .for('update'),

  attachToBatch: async (tx: Tx, settlementId: number, ids: number[]) => {
    await tx
      .update(collections)
      .set({ settlementStatus: 'pending_settlement', settlementId })
      .where(
        sql`${collections.id} = any(${sql.param(ids)}::bigint[]) and ${collections.settlementStatus} = 'unsettled'`,
      );
  },

  markSettled: async (tx: Tx, settlementId: number, at: Date) => {
    await tx
      .update(collections)
      .set({ settlementStatus: 'settled', settledAt: at })
      .where(eq(collections.settlementId, settlementId));
  },
};
