import { noRiskRulesWhere } from '../../db/risk-rules.ts';
import { noGatewayApprovalWhere } from '../../db/payout-approval.ts';
import { and, eq, gte, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { batchersByShape, batchWroteNothing } from '../../db/batcher.ts';
import {
  type Db,
  type DbOrTx,
  preparedOnce,
  queryRows,
  queryText,
  textPerShape,
  type Tx,
} from '../../db/client.ts';
import { type JobInsert, jobInStatement } from '../../db/jobs.ts';
import { columnList, driverValues, givenKeys, jsonColumns, recordsetColumns } from '../../db/rows.ts';
import { idempotencyKeys, payoutApprovalSettings, payouts, users } from '../../db/schema/index.ts';
import { attemptInsertCte, type ChannelRow, rememberedChannel } from '../channels/index.ts';
import { nonceClaim, type NonceClaimSql } from '../gateway/index.ts';
import type { HoldInStatement, HoldManyInStatement } from '../ledger/index.ts';
import {
  insertOrder,
  moveOrderToChannel,
  orderByTradeNo,
  orderDashboard,
  orderOfMerchant,
} from '../lists/index.ts';
import { transitionFrom } from '../../db/transition.ts';

export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;

/** A gateway payout's Idempotency-Key and the answer it keeps, stored with the payout. */
export type KeyAnswer = {
  key: string;
  scope: string;
  requestHash: string;
  responseStatus: number;
  responseBody: string;
  at: Date;
};
const KEY_PARAMS = 7;
const keyParams = (merchantId: number, k: KeyAnswer): unknown[] => [
  k.key,
  `${merchantId}:${k.key}`,
  k.scope,
  k.requestHash,
  k.responseStatus,
  k.responseBody,
  k.at.toISOString(),
];
/** The same values as one input row of the batch statement (insertHoldingManyText's idem_* columns). */
const IDEM_COLUMNS =
  'idem_key text, idem_lock text, idem_scope text, idem_hash text, idem_status integer, idem_body text, idem_at timestamptz';
const keyRow = (merchantId: number, k: KeyAnswer) => {
  const [key, lock, scope, hash, status, body, at] = keyParams(merchantId, k);
  return {
    idem_key: key,
    idem_lock: lock,
    idem_scope: scope,
    idem_hash: hash,
    idem_status: status,
    idem_body: body,
    idem_at: at,
  };
};

/**
 * insertHoldingClaiming's statement, written once per shape (given columns, a channel routed to or a
 * named one, with or without a job, with or without an Idempotency-Key). Parameters: the payout's
 * values, the channel as remembered, the nonce claim's, the hold's, the key's, then the job's JSON.
 */
const insertHoldingText = textPerShape(
  writeInsertHoldingText,
  (given, routed, _claim, _hold, job, keyed) =>
    `${given.join(',')}|${routed}|${keyed}|${job ? job.text : ''}`,
);
function writeInsertHoldingText(
  given: string[],
  routed: boolean,
  claim: NonceClaimSql,
  hold: HoldInStatement,
  job: JobInsert | undefined,
  keyed: boolean,
): string | undefined {
  const { names, params } = columnList(payouts, given);
  const at = (key: string) => `$${given.indexOf(key) + 1}`;
  const claimFrom = given.length + rememberedChannel.paramCount;
  const holdFrom = claimFrom + claim.params.length;
  const keyFrom = holdFrom + hold.paramCount;
  const jobAt = keyFrom + (keyed ? KEY_PARAMS : 0) + 1;
  const k = (i: number) => `$${keyFrom + i}`;
  // The key: never used (an expired one goes the long way, which replaces it), and its lock taken, as
  // lockKey takes it, so that the long way and this one never both write a payout for one key.
  const keyGate = keyed
    ? `and not exists (select 1 from idempotency_keys i where i.merchant_id = ${at('merchantId')} and i.key = ${k(1)})
       and exists (select 1 from key_lock where locked)`
    : '';
  const keyCtes = keyed
    ? {
        lock: `key_lock as (select pg_try_advisory_xact_lock(hashtextextended(${k(2)}, 0)) as locked from n), `,
        stored: `stored as (
         insert into idempotency_keys (merchant_id, key, scope, request_hash, response_status, response_body,
                                       status, created_at)
         select p.merchant_id, ${k(1)}, ${k(3)}, ${k(4)}, ${k(5)}::int, ${k(6)}, 'done', ${k(7)}::timestamptz
           from p
       ), `,
      }
    : { lock: '', stored: '' };
  const job_ = job ? jobInStatement.cte(job, jobAt, 'p') : '';
  const { legs, records } = hold.text(holdFrom, 'go', 'cause');
  const text =
    job_ === undefined
      ? undefined
      : `with ${claim.ctes(claimFrom)}, ${keyCtes.lock}go as (
         select 1
          where exists (select 1 from n)
            and exists (select 1 from channels c where ${rememberedChannel.where('payout', given.length, routed)})
            and ${noRiskRulesWhere('payout', at('merchantId'))}
            and ${noGatewayApprovalWhere(at('merchantId'), `${at('amountMinor')}::bigint`)}
            and not exists (select 1 from payouts o where o.merchant_id = ${at('merchantId')}
                              and o.out_trade_no = ${at('outTradeNo')})
            ${keyGate}
       ), ${legs}, p as (
         insert into payouts (${names}) select ${params} from hold_locked returning *
       ), ${attemptInsertCte('payout', 'p')}, cause as (
         select p.id::text as ref_id, p.trade_no as ref_no, p.payee_name as note,
                'payout:' || p.id || ':deduct' as idempotency_key
           from p
       ), ${keyCtes.stored}${job_ ? `${job_}, ` : ''}${records}
       select ${nonceClaim.answers},
              exists (select 1 from go) as "go", p.*
         from (select 1) as one left join p on true`;
  // Every sandbox payout of this shape now takes the long way (seven round trips): say so, once.
  if (text === undefined) jobInStatement.refused('payout');
  return text;
}

/** One call of insertHoldingClaiming, and what it answers. */
type Holding = {
  row: NewPayout;
  seen: ChannelRow;
  routed: boolean;
  claim: NonceClaimSql;
  hold: HoldInStatement;
  job: JobInsert | undefined;
  key: KeyAnswer | undefined;
  many: HoldManyInStatement;
  holdRow: Record<string, string>;
};
type HoldingAnswer = { current: boolean; claimed: boolean; go: boolean; row: PayoutRow | undefined };

const holdingAnswer = (saved: Record<string, unknown>): HoldingAnswer => ({
  ...nonceClaim.answerOf<PayoutRow>(payouts, saved),
  go: saved.go === true,
});

async function insertOneHolding(
  db: DbOrTx,
  call: Omit<Holding, 'many' | 'holdRow' | 'key'>,
  key?: KeyAnswer,
) {
  const { row, seen, routed, claim, hold, job } = call;
  const given = givenKeys(row);
  const text = insertHoldingText(given, routed, claim, hold, job, key !== undefined);
  if (text === undefined) return undefined;
  const [saved] = await queryText<Record<string, unknown>>(db, text, [
    ...driverValues(payouts, row, given),
    ...rememberedChannel.params(seen),
    ...claim.params,
    ...hold.params,
    ...(key ? keyParams(row.merchantId, key) : []),
    ...(job ? job.params : []),
  ]);
  return holdingAnswer(saved);
}

/**
 * insertHoldingClaiming for many calls in one statement: each input row (`r`, one JSON object per call)
 * carries the payout's columns, the channel as remembered (c1..c13), the nonce's claim (k1..k11), its
 * hold (the ledger's columns), its job's JSON and, `keyed`, its Idempotency-Key's answer (idem_*). Each
 * call goes ahead exactly when its own statement would (nonce claimed, channel as remembered,
 * out_trade_no unused; the key never used and its lock taken); the ledger holds each merchant's rows
 * together, and when a merchant's available does not cover them all the statement fails (division by
 * zero, 22012) so that nothing commits and each call runs alone, where the funds decide call by call.
 * One answer row per call, in the calls' order.
 */
const insertHoldingManyText = textPerShape(
  writeInsertHoldingManyText,
  (given, _many, job, keyed) => `${given.join(',')}|${keyed}|${job ? job.text : ''}`,
);
function writeInsertHoldingManyText(
  given: string[],
  many: HoldManyInStatement,
  job: JobInsert | undefined,
  keyed: boolean,
) {
  const { names, definitions } = recordsetColumns(payouts, given);
  const { legs, records, covered } = many.text(0, 'go', 'cause');
  // pg-boss's insert takes its jobs as a JSON array: here, those of the payouts written.
  const jobs = job ? `, ${jobInStatement.batchCte(job, 'go g join p on p.trade_no = g.trade_no')}` : '';
  // As the single statement's key: never used, and its lock taken (as lockKey takes it), for the calls
  // whose nonce is claimed. The batcher never puts two calls of one key in a statement (keysOf).
  const key = keyed
    ? {
        columns: `, ${IDEM_COLUMNS}`,
        lock: `key_lock as (
      select r.i from r where ${nonceClaim.claimedBy('r')} and pg_try_advisory_xact_lock(hashtextextended(r.idem_lock, 0))
    ), `,
        gate: `and not exists (select 1 from idempotency_keys x where x.merchant_id = r.merchant_id and x.key = r.idem_key)
         and exists (select 1 from key_lock l where l.i = r.i)`,
        stored: `, stored as (
      insert into idempotency_keys (merchant_id, key, scope, request_hash, response_status, response_body,
                                    status, created_at)
      select g.merchant_id, g.idem_key, g.idem_scope, g.idem_hash, g.idem_status, g.idem_body, 'done', g.idem_at
        from go g join p on p.trade_no = g.trade_no
    )`,
      }
    : { columns: '', lock: '', gate: '', stored: '' };
  return `with r as (
      select * from json_to_recordset($${many.paramCount + 1}::json)
        as r(i integer, by_routing boolean, job json, ${definitions}, ${rememberedChannel.columns},
             ${nonceClaim.columns}, ${many.columns}${key.columns})
    ), ${nonceClaim.batchCtes('r')}, ${key.lock}go as (
      select r.* from r
       where ${nonceClaim.claimedBy('r')}
         and exists (select 1 from channels c where ${rememberedChannel.batchWhere('payout', 'r', 'r.by_routing')})
         and ${noRiskRulesWhere('payout', 'r.merchant_id')}
         and ${noGatewayApprovalWhere('r.merchant_id', 'r.amount_minor')}
         and not exists (select 1 from payouts o where o.merchant_id = r.merchant_id and o.out_trade_no = r.out_trade_no)
         ${key.gate}
    ), ${legs}, p as (
      insert into payouts (${names.join(', ')})
      select ${names.map((name) => `g.${name}`).join(', ')}
        from go g join hold_locked l on l.merchant_id = g.merchant_id
       order by g.i
      returning *
    ), ${attemptInsertCte('payout', 'p')}, cause as (
      select g.i, p.merchant_id, g.hold_amount as amount, p.id::text as ref_id, p.trade_no as ref_no,
             p.payee_name as note, 'payout:' || p.id || ':deduct' as idempotency_key
        from p join go g on g.trade_no = p.trade_no
    )${key.stored}${jobs}, ${records}
    select ${nonceClaim.batchAnswers('r')}, exists (select 1 from go where go.i = r.i) as "go",
           ${covered}, p.*
      from r left join p on p.trade_no = r.trade_no
     order by r.i`;
}

async function insertManyHolding(db: Db, calls: Holding[]): Promise<HoldingAnswer[]> {
  const { row: first, many, job, key } = calls[0];
  const given = givenKeys(first);
  const input = calls.map(({ row, seen, routed, claim, holdRow, job, key }, i) => ({
    i,
    // Not `routed`: that is the order's own column (in the recordset too).
    by_routing: routed,
    job: jobInStatement.batchRow(job),
    ...jsonColumns(payouts, row, given),
    ...rememberedChannel.row(seen),
    ...nonceClaim.row(claim),
    ...holdRow,
    ...(key ? keyRow(row.merchantId, key) : {}),
  }));
  const text = insertHoldingManyText(given, many, job, key !== undefined);
  const rows = await queryText<Record<string, unknown>>(db, text, [...many.params, JSON.stringify(input)]);
  return rows.map(holdingAnswer);
}

/**
 * Calls of one shape (given columns, job) share a statement; funds short for a merchant's rows: 22012.
 * Two statements may run at once, never with one merchant in both (its second would only wait for the
 * first's balance row): a merchant whose row is held elsewhere stalls its batch, not every payout.
 */
const holdingBatcher = batchersByShape((db: Db) => ({
  one: (call: Holding) => insertOneHolding(db, call, call.key),
  many: (calls: Holding[]) => insertManyHolding(db, calls),
  alone: batchWroteNothing(['22012']),
  keysOf: (call: Holding) => [
    call.claim.key,
    `order:${call.row.merchantId}:${call.row.outTradeNo}`,
    ...(call.key ? [`key:${call.row.merchantId}:${call.key.key}`] : []),
  ],
  laneOf: (call: Holding) => `merchant:${call.row.merchantId}`,
  maxInFlight: 2,
}));

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export const payoutsRepository = {
  /**
   * Payouts of any merchant still in flight (pending or processing) since before `before`, on channels of
   * these providers, oldest first (the housekeeping sweep: payouts_in_flight_idx).
   */
  inFlightOn: async (db: DbOrTx, providers: readonly string[], before: Date, limit: number) => {
    if (providers.length === 0) return [];
    return queryRows<{ trade_no: string; status: string; channel_ref: string | null; provider: string }>(
      db,
      sql`select p.trade_no, p.status, p.channel_ref, c.provider
            from payouts p join channels c on c.id = p.channel_id
           where p.status in ('pending', 'processing') and p.created_at < ${before.toISOString()}::timestamptz
             and c.provider = any(${sql.param([...providers])}::text[])
           order by p.created_at
           limit ${limit}`,
    );
  },

  /** The new payout and its attempt on its channel (one statement); undefined: out_trade_no used. */
  insert: (tx: Tx, row: NewPayout) => insertOrder(tx, payouts, 'payout', row),

  /**
   * A gateway payout in one statement (one round trip, one commit), on a channel and an access key the
   * process remembers: the call's nonce is claimed, then, only if the channel still reads as remembered
   * and the merchant has not used the out_trade_no, the hold takes amount + fee from available (only if
   * it covers them), and only then are the payout, its job and the hold's entry written. `current` false:
   * the remembered key is stale and nothing was written; `claimed` false: the nonce was used; `go` false:
   * the channel or the out_trade_no said no (only the nonce was written); `row` undefined with `go`:
   * insufficient funds. Undefined when pg-boss's insert cannot be a CTE here (the caller goes the long way).
   * With `key`, the payout goes ahead only if the key was never used and its lock is free, and the key's
   * answer is stored with it; `go` false then leaves the key's answer to the long way.
   */
  insertHoldingClaiming: async (
    db: Db,
    row: NewPayout,
    seen: ChannelRow,
    routed: boolean,
    claim: NonceClaimSql,
    hold: HoldInStatement,
    job: JobInsert | undefined,
    key?: KeyAnswer,
    batch?: { many: HoldManyInStatement; holdRow: Record<string, string> },
  ): Promise<HoldingAnswer | undefined> => {
    const given = givenKeys(row);
    if (!batch || insertHoldingText(given, routed, claim, hold, job, key !== undefined) === undefined)
      return insertOneHolding(db, { row, seen, routed, claim, hold, job }, key);
    // Calls that arrive together share one statement and one commit (group commit, createBatcher).
    const { many, holdRow } = batch;
    return holdingBatcher(db, `${given.join(',')}|${key !== undefined}|${job ? job.text : ''}`).submit({
      row,
      seen,
      routed,
      claim,
      hold,
      job,
      key,
      many,
      holdRow,
    });
  },

  /** The merchant's order by our number or its own (another merchant's reads as none). */
  findOfMerchant: (db: DbOrTx, merchantId: number, ref: { tradeNo?: string; outTradeNo?: string }) =>
    orderOfMerchant(db, payouts, merchantId, ref),

  findAnyByTradeNo: (db: DbOrTx, tradeNo: string) => orderByTradeNo(db, payouts, tradeNo),

  /** A pending payout the provider never had, moved to another channel (a failover, DESIGN 14). */
  moveToChannel: (
    tx: Tx,
    id: number,
    fromChannelId: number,
    set: { channelId: number; channelCode: string },
  ) => moveOrderToChannel(tx, payouts, id, { channelId: fromChannelId, status: 'pending' }, set),

  /** A state change only from the expected state: a racing change finds nothing and changes nothing. */
  transition: (
    tx: Tx,
    id: number,
    from: string,
    set: Partial<typeof payouts.$inferInsert> & { status: string },
  ) => transitionFrom(tx, payouts, id, from, set),

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

  /** The merchant row's approval thresholds (DESIGN 16); none set reads as both off. */
  approvalSettings: async (db: DbOrTx, merchantId: number) => {
    const [row] = await db
      .select()
      .from(payoutApprovalSettings)
      .where(eq(payoutApprovalSettings.merchantId, merchantId));
    return row;
  },

  saveApprovalSettings: async (
    tx: Tx,
    values: {
      merchantId: number;
      consoleThresholdMinor: bigint;
      gatewayThresholdMinor: bigint;
      updatedByUserId: number;
      updatedAt: Date;
    },
  ) => {
    const { merchantId: _merchantId, ...set } = values;
    const [row] = await tx
      .insert(payoutApprovalSettings)
      .values(values)
      .onConflictDoUpdate({ target: payoutApprovalSettings.merchantId, set })
      .returning();
    return row;
  },

  /** The merchant's payouts waiting for approval: how many and their amount (the Dashboard, DESIGN 16). */
  waitingForApproval: async (db: DbOrTx, merchantId: number) => {
    const [row] = await db
      .select({
        count: sql<number>`count(*)::int`,
        amount: sql<string>`coalesce(sum(${payouts.amountMinor}), 0)::text`,
      })
      .from(payouts)
      .where(and(eq(payouts.merchantId, merchantId), eq(payouts.status, 'pending_approval')));
    return { count: Number(row?.count ?? 0), amountMinor: BigInt(row?.amount ?? '0') };
  },

  /** The names of these users of the merchant (who made and who reviewed a payout). */
  userNames: async (db: DbOrTx, ids: number[]) => {
    if (ids.length === 0) return new Map<number, string>();
    const rows = await db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  },

  /** The Dashboard's figures of payouts: paid is a success (a refund later counts too), not finished is pending. */
  dashboard: (db: Db) =>
    orderDashboard(db, payouts, {
      paid: ['success', 'refund_received'],
      open: ['pending_approval', 'pending', 'processing'],
    }),

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

  /** Takes the key's lock for the rest of the transaction, waiting while another transaction holds it. */
  waitForKey: async (tx: Tx, merchantId: number, key: string) => {
    await queryRows(
      tx,
      sql`select pg_advisory_xact_lock(hashtextextended(${`${merchantId}:${key}`}, 0))::text`,
    );
  },

  /** Keeps the key's answer; a row of the same key older than 24 hours is replaced. */
  storeKey: async (db: DbOrTx, input: KeyAnswer & { merchantId: number }) => {
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
