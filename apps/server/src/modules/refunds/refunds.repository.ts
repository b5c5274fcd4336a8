import { and, asc, eq, gte, lt, ne, sql } from 'drizzle-orm';
import { batchersByShape, batchWroteNothing } from '../../db/batcher.ts';
import { type Db, type DbOrTx, queryText, textPerShape, type Tx, withKeptPlans } from '../../db/client.ts';
import { type JobInsert, jobInStatement } from '../../db/jobs.ts';
import { columnList, driverValues, givenKeys, jsonColumns, recordsetColumns } from '../../db/rows.ts';
import { channels, collections, merchants, refunds } from '../../db/schema/index.ts';
import { type ChannelRow, rememberedChannel } from '../channels/index.ts';
import { collectionRefundClaim } from '../collections/index.ts';
import { nonceClaim, type NonceClaimSql } from '../gateway/index.ts';
import type { HoldInStatement, HoldManyInStatement } from '../ledger/index.ts';
import { transitionFrom } from '../../db/transition.ts';

export type RefundRow = typeof refunds.$inferSelect;
export type NewRefund = typeof refunds.$inferInsert;

/**
 * insertHoldingClaiming's statement, written once per shape (given columns, with or without a job).
 * Parameters: the refund's values, its order's channel as remembered, the nonce claim's, the order's
 * claim (collectionRefundClaim.cte), the hold's, then the job's JSON.
 */
const insertHoldingText = textPerShape(
  writeInsertHoldingText,
  (given, _claim, _hold, job) => `${given.join(',')}|${job ? job.text : ''}`,
);
function writeInsertHoldingText(
  given: string[],
  claim: NonceClaimSql,
  hold: HoldInStatement,
  job: JobInsert | undefined,
): string | undefined {
  const { names, params } = columnList(refunds, given);
  const at = (key: string) => `$${given.indexOf(key) + 1}`;
  const channelFrom = given.length;
  const claimFrom = channelFrom + rememberedChannel.paramCount;
  const orderFrom = claimFrom + claim.params.length;
  const holdFrom = orderFrom + collectionRefundClaim.paramCount;
  const job_ = job ? jobInStatement.cte(job, holdFrom + hold.paramCount + 1, 'r') : '';
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
            and exists (select 1 from channels c where ${rememberedChannel.where('collection', channelFrom, false)})
            and not exists (select 1 from refunds o where o.merchant_id = ${at('merchantId')}
                              and o.out_refund_no = ${at('outRefundNo')})
       ), ${collectionRefundClaim.cte('taken', 'go', orderFrom)}, ${legs}, r as (
         insert into refunds (${names}) select ${params} from hold_locked returning *
       ), cause as (
         select r.id::text as ref_id, r.refund_no as ref_no, r.trade_no as note,
                'refund:' || r.id || ':hold' as idempotency_key
           from r
       ), ${job_ ? `${job_}, ` : ''}${records}
       select ${nonceClaim.answers},
              exists (select 1 from go) as "go",
              1 / (case when exists (select 1 from taken) and not exists (select 1 from r) then 0 else 1 end)
                as "whole",
              r.*
         from (select 1) as one left join r on true`;
  if (text === undefined) jobInStatement.refused('refund');
  return text;
}

/** What a one-statement refund did: see refundsRepository.insertHoldingClaiming. */
export type HoldingAnswer = { current: boolean; claimed: boolean; go: boolean; row: RefundRow | undefined };

const holdingAnswer = (saved: Record<string, unknown>): HoldingAnswer => ({
  ...nonceClaim.answerOf<RefundRow>(refunds, saved),
  go: saved.go === true,
});

/** One call of insertHoldingClaiming. */
type Holding = {
  row: NewRefund;
  seen: ChannelRow;
  claim: NonceClaimSql;
  hold: HoldInStatement;
  job: JobInsert | undefined;
  many: HoldManyInStatement;
  holdRow: Record<string, string>;
};

async function insertOneHolding(db: DbOrTx, call: Omit<Holding, 'many' | 'holdRow'>) {
  const { row, seen, claim, hold, job } = call;
  const given = givenKeys(row);
  const text = insertHoldingText(given, claim, hold, job);
  if (text === undefined) return undefined;
  const [saved] = await queryText<Record<string, unknown>>(db, text, [
    ...driverValues(refunds, row, given),
    ...rememberedChannel.params(seen),
    ...claim.params,
    ...collectionRefundClaim.params(row.collectionId, row.merchantId, row.amountMinor),
    ...hold.params,
    ...(job ? job.params : []),
  ]);
  return holdingAnswer(saved);
}

/**
 * insertHoldingClaiming for many calls in one statement: each input row (`r`, one JSON object per call)
 * carries the refund's columns, its order's channel as remembered (c1..c13), the nonce's claim
 * (k1..k11), its hold (the ledger's columns) and its job's JSON. Each call goes ahead exactly when its
 * own statement would (nonce claimed, channel as remembered, out_refund_no unused, the order paid with the
 * amount left); the ledger holds each merchant's rows together, and when a merchant's available does not
 * cover them all the statement fails (division by zero, 22012) so that nothing commits (the orders'
 * claims neither) and each call runs alone. One answer row per call, in the calls' order.
 */
const insertHoldingManyText = textPerShape(
  writeInsertHoldingManyText,
  (given, _many, job) => `${given.join(',')}|${job ? job.text : ''}`,
);
function writeInsertHoldingManyText(given: string[], many: HoldManyInStatement, job: JobInsert | undefined) {
  const { names, definitions } = recordsetColumns(refunds, given);
  const { legs, records, covered } = many.text(0, 'taken', 'cause');
  // pg-boss's insert takes its jobs as a JSON array: here, those of the refunds written.
  const jobs = job ? `, ${jobInStatement.batchCte(job, 'taken g join w on w.refund_no = g.refund_no')}` : '';
  return `with r as (
      select * from json_to_recordset($${many.paramCount + 1}::json)
        as r(i integer, job json, ${definitions}, ${rememberedChannel.columns},
             ${nonceClaim.columns}, ${many.columns})
    ), ${nonceClaim.batchCtes('r')}, go as (
      select r.* from r
       where ${nonceClaim.claimedBy('r')}
         and exists (select 1 from channels c where ${rememberedChannel.batchWhere('collection', 'r', 'false')})
         and not exists (select 1 from refunds o where o.merchant_id = r.merchant_id and o.out_refund_no = r.out_refund_no)
    ), ${collectionRefundClaim.batchCte('taken', 'go')}, ${legs}, w as (
      insert into refunds (${names.join(', ')})
      select ${names.map((name) => `g.${name}`).join(', ')}
        from taken g join hold_locked l on l.merchant_id = g.merchant_id
       order by g.i
      returning *
    ), cause as (
      select g.i, w.merchant_id, g.hold_amount as amount, w.id::text as ref_id, w.refund_no as ref_no,
             w.trade_no as note, 'refund:' || w.id || ':hold' as idempotency_key
        from w join taken g on g.refund_no = w.refund_no
    )${jobs}, ${records}
    select ${nonceClaim.batchAnswers('r')}, exists (select 1 from go where go.i = r.i) as "go",
           ${covered}, w.*
      from r left join w on w.refund_no = r.refund_no
     order by r.i`;
}

async function insertManyHolding(db: Db, calls: Holding[]): Promise<HoldingAnswer[]> {
  const { row: first, many, job } = calls[0];
  const given = givenKeys(first);
  const input = calls.map(({ row, seen, claim, holdRow, job }, i) => ({
    i,
    job: jobInStatement.batchRow(job),
    ...jsonColumns(refunds, row, given),
    ...rememberedChannel.row(seen),
    ...nonceClaim.row(claim),
    ...holdRow,
  }));
  const text = insertHoldingManyText(given, many, job);
  const rows = await queryText<Record<string, unknown>>(db, text, [...many.params, JSON.stringify(input)]);
  return rows.map(holdingAnswer);
}

/**
 * Calls of one shape (given columns, job) share a statement; funds short for a merchant's rows: 22012.
 * Two refunds of one order never share a statement (its second would fail the batch's update).
 */
const holdingBatcher = batchersByShape((db: Db) => ({
  one: (call: Holding) => insertOneHolding(db, call),
  many: (calls: Holding[]) => insertManyHolding(db, calls),
  alone: batchWroteNothing(['22012']),
  keysOf: (call: Holding) => [
    call.claim.key,
    `order:${call.row.collectionId}`,
    `refund:${call.row.merchantId}:${call.row.outRefundNo}`,
  ],
  // One statement at a time: the calls that arrive meanwhile all go in the next one. Two side by side
  // (each half as large) cost PostgreSQL 0.61-0.70 ms of CPU per refund against 0.44-0.51 for one, and
  // gave 0.24-0.26 of pgbench -N against 0.27-0.29 (bench refunds, 16 clients, same quiet minutes).
  maxInFlight: 1,
}));

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
    db: Db,
    row: NewRefund,
    seen: ChannelRow,
    claim: NonceClaimSql,
    hold: HoldInStatement,
    job: JobInsert | undefined,
    batch?: { many: HoldManyInStatement; holdRow: Record<string, string> },
  ): Promise<HoldingAnswer | undefined> => {
    const given = givenKeys(row);
    // On the connections that keep one plan per statement (withKeptPlans, PostgreSQL): on the main pool
    // PostgreSQL kept costing this statement's plan for each run's values below the one made without
    // them, and planned its dozen CTEs afresh at every run (bench refunds: PostgreSQL 0.78-0.82 ms of CPU
    // per refund, 0.70 here; 0.22 of pgbench -N, 0.25 here). Its values never change its plan: every
    // table is reached by key, and a batch's rows come from one JSON parameter.
    const on = withKeptPlans(db) as Db;
    if (!batch || insertHoldingText(given, claim, hold, job) === undefined)
      return insertOneHolding(on, { row, seen, claim, hold, job });
    // Calls that arrive together share one statement and one commit (group commit, createBatcher).
    return holdingBatcher(on, `${given.join(',')}|${job ? job.text : ''}`).submit({
      row,
      seen,
      claim,
      hold,
      job,
      ...batch,
    });
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
  transition: (tx: Tx, id: number, from: string, set: Partial<NewRefund>) =>
    transitionFrom(tx, refunds, id, from, set),

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
