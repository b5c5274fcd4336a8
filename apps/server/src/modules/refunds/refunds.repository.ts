import { and, asc, eq, gte, lt, ne, sql } from 'drizzle-orm';
import { type DbOrTx, queryText, type Tx } from '../../db/client.ts';
import type { JobInsert } from '../../db/jobs.ts';
import { columnList, driverValues, givenKeys, rowOf } from '../../db/rows.ts';
import { channels, collections, merchants, refunds } from '../../db/schema/index.ts';
import {
  type ChannelRow,
  REMEMBERED_CHANNEL_PARAMS,
  rememberedChannelParams,
  rememberedChannelWhere,
} from '../channels/index.ts';
import {
  COLLECTION_REFUND_CLAIM_PARAMS,
  collectionRefundClaimCte,
  collectionRefundClaimParams,
} from '../collections/index.ts';
import type { NonceClaimSql } from '../gateway/index.ts';
import type { Ledger } from '../ledger/index.ts';

export type RefundRow = typeof refunds.$inferSelect;
export type NewRefund = typeof refunds.$inferInsert;
/** The ledger's hold as CTEs of the refund's statement (Ledger.holdInStatement). */
type HoldInStatement = ReturnType<Ledger['holdInStatement']>;

/** pg-boss's job insert as a CTE that inserts only with the refund `r`: its one parameter is $`at`. */
function jobCte(job: JobInsert, at: number): string | undefined {
  const json = '$1::text::json';
  const { text } = job;
  if (!/^\s*insert into/i.test(text) || text.split(json).length !== 2 || /\$[2-9]/.test(text))
    return undefined;
  return `job as (${text.replace(json, `(select $${at}::text from r)::json`)})`;
}

/**
 * insertHoldingClaiming's statement, written once per shape (given columns, with or without a job).
 * Parameters: the refund's values, its order's channel as remembered, the nonce claim's, the order's
 * claim (collectionRefundClaimCte), the hold's, then the job's JSON.
 */
const holdingTexts = new Map<string, string | undefined>();
function insertHoldingText(
  given: string[],
  claim: NonceClaimSql,
  hold: HoldInStatement,
  job: JobInsert | undefined,
): string | undefined {
  const shape = `${given.join(',')}|${job ? job.text : ''}`;
  if (holdingTexts.has(shape)) return holdingTexts.get(shape);
  const { names, params } = columnList(refunds, given);
  const at = (key: string) => `$${given.indexOf(key) + 1}`;
  const channelFrom = given.length;
  const claimFrom = channelFrom + REMEMBERED_CHANNEL_PARAMS;
  const orderFrom = claimFrom + claim.params.length;
  const holdFrom = orderFrom + COLLECTION_REFUND_CLAIM_PARAMS;
  const job_ = job ? jobCte(job, holdFrom + hold.paramCount + 1) : '';
  const { legs, records } = hold.text(holdFrom, 'taken', 'cause');
  // The order's claim comes before the hold (the merchant's balance row is locked last, to the commit
  // only). When the order gave the amount but the balance did not cover it, the statement fails
  // (division by zero, 22012) so that nothing of it commits; the long way then answers.
  const text =
    job_ === undefined
      ? undefined
      : `with ${claim.ctes(claimFrom)}, go as (
         select 1
          where exists (select 1 from n)
            and exists (select 1 from channels c where ${rememberedChannelWhere('collection', channelFrom, false)})
            and not exists (select 1 from refunds o where o.merchant_id = ${at('merchantId')}
                              and o.out_refund_no = ${at('outRefundNo')})
       ), ${collectionRefundClaimCte('taken', 'go', orderFrom)}, ${legs}, r as (
         insert into refunds (${names}) select ${params} from hold_locked returning *
       ), cause as (
         select r.id::text as ref_id, r.refund_no as ref_no, r.trade_no as note,
                'refund:' || r.id || ':hold' as idempotency_key
           from r
       ), ${job_ ? `${job_}, ` : ''}${records}
       select exists (select 1 from k) as "current", exists (select 1 from n) as "claimed",
              exists (select 1 from go) as "go",
              1 / (case when exists (select 1 from taken) and not exists (select 1 from r) then 0 else 1 end)
                as "whole",
              r.*
         from (select 1) as one left join r on true`;
  if (text === undefined) {
    process.emitWarning(
      'pg-boss wrote a job insert that cannot be a CTE of the one-statement refund; refunds take the long way.',
    );
  }
  holdingTexts.set(shape, text);
  return text;
}

/** What a one-statement refund did: see refundsRepository.insertHoldingClaiming. */
export type HoldingAnswer = { current: boolean; claimed: boolean; go: boolean; row: RefundRow | undefined };

/** SQL of refunds (DESIGN 14): scoped by merchant wherever the caller is a merchant. */
export const refundsRepository = {
  /**
   * A gateway refund in one statement (one round trip, one commit), for a call whose access key and
   * order's channel the process remembers: the call's nonce is claimed; then, only if the channel still
   * reads as remembered and the merchant has not used the out_refund_no, the order takes the amount
   * (paid, of this merchant, that much left), the hold takes it from available, and only then are the
   * refund, its job and the hold's entry written. `current` false: the remembered key is stale, nothing
   * was written; `claimed` false: the nonce was used; `row` undefined otherwise: only the nonce was
   * written (the channel, the out_refund_no or the order said no). Funds short after the order gave the
   * amount: the statement fails with 22012 and writes nothing. Undefined when pg-boss's insert cannot be
   * a CTE here (the caller goes the long way).
   */
  insertHoldingClaiming: async (
    db: DbOrTx,
    row: NewRefund,
    seen: ChannelRow,
    claim: NonceClaimSql,
    hold: HoldInStatement,
    job: JobInsert | undefined,
  ): Promise<HoldingAnswer | undefined> => {
    const given = givenKeys(row);
    const text = insertHoldingText(given, claim, hold, job);
    if (text === undefined) return undefined;
    const [saved] = await queryText<Record<string, unknown>>(db, text, [
      ...driverValues(refunds, row, given),
      ...rememberedChannelParams(seen),
      ...claim.params,
      ...collectionRefundClaimParams(row.collectionId, row.merchantId, row.amountMinor),
      ...hold.params,
      ...(job ? job.params : []),
    ]);
    return {
      current: saved.current === true,
      claimed: saved.claimed === true,
      go: saved.go === true,
      row: saved.id === null || saved.id === undefined ? undefined : rowOf<RefundRow>(refunds, saved),
    };
  },

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

  /** Refunds in processing whose channel's provider is one of `providers` (the operator's queue), oldest first. */
  processingOn: async (db: DbOrTx, providers: readonly string[], limit: number) => {
    if (providers.length === 0) return [];
    return db
      .select({ refund: refunds, merchantNo: merchants.no })
      .from(refunds)
      .innerJoin(channels, eq(channels.id, refunds.channelId))
      .innerJoin(merchants, eq(merchants.id, refunds.merchantId))
      .where(
        and(
          eq(refunds.status, 'processing'),
          sql`${channels.provider} = any(${sql.param([...providers])}::text[])`,
        ),
      )
      .orderBy(asc(refunds.createdAt), asc(refunds.id))
      .limit(limit);
  },
};
