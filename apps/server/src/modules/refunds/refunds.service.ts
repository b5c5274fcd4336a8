import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import {
  type GatewayRefund,
  REFUND_TRANSITIONS,
  type Refund,
  type RefundDetail,
  type RefundStatus,
} from '@paydesk/shared/refunds/refunds.schemas.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { type CallbacksService, firstDelivery } from '../callbacks/index.ts';
import {
  adapterFor,
  type AdapterSettings,
  allAdapters,
  type ChannelRow,
  findChannelById,
  followUpInsert,
  sendFollowUp,
} from '../channels/index.ts';
import type { DeferredClaim } from '../gateway/index.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import {
  type ActionContext,
  type CompleteRefundBody,
  type OpsRefundListQuery,
  runOperatorAction,
} from '../ops/index.ts';
import {
  claimCollectionRefund,
  type CollectionRow,
  type CollectionsService,
  giveBackCollectionRefund,
  newTradeNo,
} from '../collections/index.ts';
import { type Ledger, sqlStateOf, transactionWithRetry } from '../ledger/index.ts';
import type { IdempotencyInput, StoredAnswer, TransactionHooks } from '../payouts/index.ts';
import { keyedCreate } from '../payouts/index.ts';
import { type NewRefund, type RefundRow, refundsRepository as repo } from './refunds.repository.ts';
import { isoOrNull } from '../../lib/timezone.ts';

// Refunds of paid collections (DESIGN 14): processing -> succeeded | failed. Creation takes the amount from
// what the order can still give back (one conditional update of the order, so racing refunds never pass
// its amount) and holds it from the merchant's available balance (insufficient funds: 422, nothing
// written); success captures the hold into the channel's clearing account (the payer is paid back through
// it); failure releases it and gives the amount back to the order. The order's fee is never returned.

export type MerchantRef = { id: number; no: string; currency: Currency };
export type RefundInput = { outRefundNo?: string; amount: string; reason?: string | null };

type Common = { merchant: MerchantRef; tradeNo: string; input: RefundInput };
/** The console's Refund action, by a signed-in user with both factors. */
export type ConsoleRefund = Common & {
  source: 'console';
  userId: number;
  /** The payment password and Google code: checked after the refund's rules, before anything is written. */
  stepUp: () => Promise<void>;
};
/** A refund through the signed gateway, with its Idempotency-Key when it sent one. */
export type GatewayRefundCall = Common & {
  source: 'gateway';
  idempotency?: IdempotencyInput<RefundRow>;
  /** The call's nonce when the signature check left its claim to the refund's statement. */
  claim?: DeferredClaim;
};

type Deps = {
  db: Db;
  jobs: JobQueue;
  callbacks: Pick<CallbacksService, 'enqueue' | 'eventsOf'>;
  collections: Pick<CollectionsService, 'findForMerchant'>;
  ledger: Pick<
    Ledger,
    'hold' | 'holdInStatement' | 'holdManyInStatement' | 'capture' | 'release' | 'findHoldByKey'
  >;
  now: () => Date;
  adapterSettings: AdapterSettings;
};

const REFUND_CREATE = 'refund.create';

/** Errors after which a one-statement refund wrote nothing and the long way can answer (22012: funds short). */
const RETRY_LONG_WAY = new Set(['23505', '40P01', '40001', '22012']);

/** Runs a creation again when its new refund number clashed with another's; anything else is thrown. */
async function withFreshNumber<T>(create: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      const cause = ((error as { cause?: unknown })?.cause ?? error) as { constraint?: string };
      const clash = sqlStateOf(error) === '23505' && cause?.constraint === 'refunds_refund_no_unique';
      if (attempt >= 5 || !clash) throw error;
    }
  }
}
const holdKey = (id: number) => `refund:${id}:hold`;

/** A refund as the gateway answers it and its callbacks carry it (the callbacks add livemode). */
export function refundGatewayFields(row: RefundRow): Omit<GatewayRefund, 'livemode'> {
  const currency = row.currency as Currency;
  return {
    refund_no: row.refundNo,
    out_refund_no: row.outRefundNo,
    trade_no: row.tradeNo,
    status: row.status as RefundStatus,
    amount: fromMinor(row.amountMinor, currency),
    currency,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    finished_at: isoOrNull(row.finishedAt),
    failure_reason: row.failureReason,
  };
}

/** A refund as the console shows it (the list and the detail). */
export function refundView(row: RefundRow): Refund {
  return {
    ...refundGatewayFields(row),
    out_trade_no: row.outTradeNo,
    channel: row.channelCode,
    source: row.source as Refund['source'],
  };
}

/** A refund as the operator API and the command line show it. */
const refundForOps = (row: RefundRow, merchantNo: string | null) => ({
  ...refundView(row),
  merchant: merchantNo,
});

const CALLBACK_OF = { succeeded: 'refund.succeeded', failed: 'refund.failed' } as const;

export type RefundsService = ReturnType<typeof createRefundsService>;

export function createRefundsService({
  db,
  jobs,
  callbacks,
  collections,
  ledger,
  now,
  adapterSettings,
}: Deps) {
  const keyed = keyedCreate({ db, now });
  /** The holds of gateway refunds written together (group commit, repo.insertHoldingClaiming). */
  const holdMany = ledger.holdManyInStatement({ type: 'refund', refType: 'refund' });

  /**
   * The refund's rules that need no write, so a refusal costs the console's user no Google code: the
   * amount, the order's state and what it can still give back, and whether its channel refunds at all.
   */
  async function prepare(merchant: MerchantRef, tradeNo: string, input: RefundInput) {
    const order = await collections.findForMerchant(merchant.id, { tradeNo });
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, merchant.currency);
    } catch (error) {
      throw ValidationError.field('amount', (error as Error).message);
    }
    if (amountMinor <= 0n) throw ValidationError.field('amount', 'The amount must be more than 0.');
    assertRefundable(order, amountMinor);
    const channel = await findChannelById(db, order.channelId);
    const adapter = channel && adapterFor(channel.provider);
    // A provider this server does not run (the sandbox outside development, tests and the demo) never
    // finishes a refund: it is refused rather than left holding the merchant's money.
    const refunds =
      channel && adapter?.capabilities.kinds.includes('refund') && adapter.acceptsOrders(adapterSettings);
    if (!channel || !adapter || !refunds) {
      throw new AppError(422, `The channel ${order.channelCode} of this order cannot refund.`, {
        code: ERROR_CODES.channelUnavailable,
      });
    }
    return { order, amountMinor, channel, adapter };
  }

  /** 409 invalid_state for an order that is not paid; 422 refund_exceeds_amount above what is left. */
  function assertRefundable(
    order: Pick<CollectionRow, 'status' | 'amountMinor' | 'refundedMinor' | 'currency'>,
    amountMinor: bigint,
  ) {
    if (order.status !== 'paid') {
      throw conflict(
        `The order is ${order.status}; only a paid order can be refunded.`,
        ERROR_CODES.invalidState,
      );
    }
    const left = order.amountMinor - order.refundedMinor;
    if (amountMinor > left) {
      const currency = order.currency as Currency;
      throw ValidationError.field(
        'amount',
        `The refund is more than what is left of the order: at most ${fromMinor(left, currency)} ${currency}.`,
        ERROR_CODES.refundExceedsAmount,
      );
    }
  }

  /** A new refund of the order on its channel: our number drawn now, the merchant's or one made of ours. */
  function newRefund(
    merchant: MerchantRef,
    order: Pick<CollectionRow, 'id' | 'tradeNo' | 'outTradeNo'>,
    channel: Pick<ChannelRow, 'id' | 'code'>,
    input: RefundInput,
    amountMinor: bigint,
    by: { source: 'console' | 'gateway'; userId?: number },
  ): NewRefund & { refundNo: string; createdAt: Date } {
    const at = now();
    const refundNo = newTradeNo('R', at);
    return {
      merchantId: merchant.id,
      collectionId: order.id,
      channelId: channel.id,
      channelCode: channel.code,
      refundNo,
      outRefundNo: input.outRefundNo ?? `WEB${refundNo.slice(1)}`,
      tradeNo: order.tradeNo,
      outTradeNo: order.outTradeNo,
      source: by.source,
      createdByUserId: by.userId ?? null,
      amountMinor,
      currency: merchant.currency,
      reason: input.reason ?? null,
      createdAt: at,
    };
  }

  /** Writes the refund, takes it from the order, sends its job and holds its amount: one transaction. */
  async function insertAndHold(
    prepared: Awaited<ReturnType<typeof prepare>>,
    merchant: MerchantRef,
    input: RefundInput,
    options: { source: 'console' | 'gateway'; userId?: number },
    hooks: TransactionHooks<RefundRow> = {},
  ): Promise<RefundRow> {
    const { order, amountMinor, channel, adapter } = prepared;
    // A new refund number that clashed with another (same millisecond, same random digits) draws again.
    return withFreshNumber(() =>
      transactionWithRetry(db, async (tx) => {
        await hooks.first?.(tx);
        const values = newRefund(merchant, order, channel, input, amountMinor, options);
        const at = values.createdAt;
        const row = await repo.insert(tx, values);
        if (!row) {
          const existing = await repo.findOfMerchant(tx, merchant.id, {
            outRefundNo: input.outRefundNo ?? '',
          });
          throw new AppError(409, `The merchant refund number ${input.outRefundNo} is already used.`, {
            code: ERROR_CODES.outRefundNoTaken,
            fields: { refund_no: existing?.refundNo ?? null },
          });
        }
        // The order's row: racing refunds of it queue here, and the sum never passes its amount.
        if (!(await claimCollectionRefund(tx, merchant.id, order.id, amountMinor))) {
          // Another refund (or a change of the order) got there first: say which rule it breaks now.
          const current = await repo.orderState(tx, order.id);
          if (current) assertRefundable(current, amountMinor);
          throw conflict('The order changed meanwhile; please try again.', ERROR_CODES.invalidState);
        }
        const submission = adapter.submitRefund(channel, {
          refundNo: row.refundNo,
          tradeNo: order.tradeNo,
          collectionRef: order.channelRef,
          amountMinor,
          currency: merchant.currency,
          createdAt: at,
        });
        if (!submission.supported) {
          throw new AppError(422, `The channel ${channel.code} of this order cannot refund.`, {
            code: ERROR_CODES.channelUnavailable,
          });
        }
        if (!submission.byOperator) await sendFollowUp(jobs, tx, submission.followUp);
        await hooks.beforeHold?.(tx, row);
        // Last: the merchant's balance row is locked from here to the commit only.
        await ledger.hold(tx, {
          merchantId: merchant.id,
          type: 'refund',
          amountMinor,
          refType: 'refund',
          refId: String(row.id),
          refNo: row.refundNo,
          note: order.tradeNo,
          idempotencyKey: holdKey(row.id),
        });
        return row;
      }),
    );
  }

  /**
   * The collection channels this process read for refunds, by id: a refund of an order on one of them is
   * one statement that goes ahead only while the channel still reads so (oneStatement).
   */
  const channelMemory = new Map<number, ChannelRow>();
  const CHANNEL_MEMORY_MAX = 10_000;

  /**
   * The refund's one statement (repo.insertHoldingClaiming), after one read of its order: the nonce's
   * claim, the order's claim of the amount, the refund, its job and its hold, one round trip and one
   * commit. Undefined when the order, the amount or the channel already says no here (the long way reads
   * and refuses), or when the statement wrote nothing (a racing refund of the same out_refund_no, funds
   * short, a deadlock): the long way, the nonce not claimed yet, answers.
   */
  async function oneStatement(
    merchant: MerchantRef,
    tradeNo: string,
    input: RefundInput,
    claim: DeferredClaim,
  ) {
    let order: CollectionRow;
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, merchant.currency);
    } catch {
      return undefined; // the long way names the field
    }
    if (amountMinor <= 0n) return undefined;
    try {
      order = await collections.findForMerchant(merchant.id, { tradeNo });
      assertRefundable(order, amountMinor);
    } catch (error) {
      if (error instanceof AppError) return undefined;
      throw error;
    }
    let channel = channelMemory.get(order.channelId);
    if (!channel) {
      channel = await findChannelById(db, order.channelId);
      if (!channel) return undefined;
      setNewest(channelMemory, order.channelId, channel, CHANNEL_MEMORY_MAX);
    }
    const adapter = allAdapters().find((one) => one.provider === channel.provider);
    const refunds = adapter?.capabilities.kinds.includes('refund') && adapter.acceptsOrders(adapterSettings);
    if (!adapter || !refunds) return undefined;
    const hold = ledger.holdInStatement({
      merchantId: merchant.id,
      type: 'refund',
      refType: 'refund',
      amountMinor,
    });
    try {
      return await withFreshNumber(async () => {
        const values = newRefund(merchant, order, channel, input, amountMinor, { source: 'gateway' });
        const { refundNo, createdAt: at } = values;
        const submission = adapter.submitRefund(channel, {
          refundNo,
          tradeNo: order.tradeNo,
          collectionRef: order.channelRef,
          amountMinor,
          currency: merchant.currency,
          createdAt: at,
        });
        if (!submission.supported) return undefined;
        const job = submission.byOperator ? undefined : await followUpInsert(jobs, submission.followUp);
        // Calls that arrive together may share one statement (each answers as its own would).
        const batch = { many: holdMany, holdRow: holdMany.rowOf(merchant.id, amountMinor) };
        return repo.insertHoldingClaiming(db, values, channel, claim.sql, hold, job, batch);
      });
    } catch (error) {
      if (RETRY_LONG_WAY.has(sqlStateOf(error) ?? '')) return undefined;
      throw error;
    }
  }

  /**
   * A gateway refund whose call's nonce is not claimed yet (DeferredClaim): its one statement, or the
   * long way, which answers every refusal (the nonce claimed first when the statement did not claim it).
   */
  async function createClaiming(
    merchant: MerchantRef,
    tradeNo: string,
    input: RefundInput,
    claim: DeferredClaim,
  ): Promise<RefundRow> {
    const made = await oneStatement(merchant, tradeNo, input, claim);
    if (!made || !made.current) {
      const confirmed = await claim.confirm();
      return insertAndHold(await prepare(confirmed, tradeNo, input), confirmed, input, { source: 'gateway' });
    }
    if (!made.claimed) throw claim.reused();
    if (!made.row) {
      return insertAndHold(await prepare(merchant, tradeNo, input), merchant, input, { source: 'gateway' });
    }
    return made.row;
  }

  async function create(request: ConsoleRefund): Promise<{ replayed: false; row: RefundRow }>;
  async function create(
    request: GatewayRefundCall,
  ): Promise<{ replayed: false; row: RefundRow } | StoredAnswer>;
  async function create(
    request: ConsoleRefund | GatewayRefundCall,
  ): Promise<{ replayed: false; row: RefundRow } | StoredAnswer> {
    const { merchant, tradeNo, input } = request;
    if (request.source === 'console') {
      const prepared = await prepare(merchant, tradeNo, input);
      await request.stepUp();
      const row = await insertAndHold(prepared, merchant, input, {
        source: 'console',
        userId: request.userId,
      });
      return { replayed: false, row };
    }
    const { idempotency, claim } = request;
    if (claim && !idempotency) {
      return { replayed: false, row: await createClaiming(merchant, tradeNo, input, claim) };
    }
    // Under an Idempotency-Key the refund takes the long way, its nonce claimed first.
    if (claim) await claim.confirm();
    if (idempotency) {
      return keyed(REFUND_CREATE, merchant.id, idempotency, async (hooks: TransactionHooks<RefundRow>) =>
        insertAndHold(await prepare(merchant, tradeNo, input), merchant, input, { source: 'gateway' }, hooks),
      );
    }
    const row = await insertAndHold(await prepare(merchant, tradeNo, input), merchant, input, {
      source: 'gateway',
    });
    return { replayed: false, row };
  }

  /**
   * A refund's end, as its channel (or the operator, for a channel refunded by hand) reports it, with its
   * ledger entry and callback, in the caller's transaction. Anything but processing -> succeeded | failed
   * answers 409 and changes nothing.
   */
  async function finishIn(
    tx: Tx,
    refundNo: string,
    to: 'succeeded' | 'failed',
    reason: string | null = null,
    channelRef?: string,
  ): Promise<RefundRow> {
    const found = await repo.findAnyByRefundNo(tx, refundNo);
    if (!found) throw notFound('The refund was not found.');
    const { refund } = found;
    const from = refund.status as RefundStatus;
    if (!REFUND_TRANSITIONS[from].includes(to)) {
      throw conflict(`The refund is ${from}; it cannot become ${to}.`, ERROR_CODES.invalidTransition);
    }
    const row = await repo.transition(tx, refund.id, from, {
      status: to,
      finishedAt: now(),
      failureReason: to === 'failed' ? (reason ?? 'The channel refused the refund.') : null,
      ...(channelRef === undefined ? {} : { channelRef }),
    });
    if (!row)
      throw conflict(`The refund changed meanwhile; it cannot become ${to}.`, ERROR_CODES.invalidTransition);
    const hold = await ledger.findHoldByKey(tx, row.merchantId, holdKey(row.id));
    if (!hold) throw new Error(`Refund ${row.refundNo} has no hold.`);
    if (to === 'succeeded') {
      await ledger.capture(tx, {
        merchantId: row.merchantId,
        holdId: hold.id,
        channel: row.channelCode,
        idempotencyKey: `refund:${row.id}:succeeded`,
      });
    } else {
      await ledger.release(tx, {
        merchantId: row.merchantId,
        holdId: hold.id,
        idempotencyKey: `refund:${row.id}:failed`,
        note: row.failureReason,
      });
      await giveBackCollectionRefund(tx, row.collectionId, row.amountMinor);
    }
    await callbacks.enqueue(tx, {
      merchantId: row.merchantId,
      type: CALLBACK_OF[to],
      refType: 'refund',
      refId: row.id,
      url: found.notifyUrl,
      data: refundGatewayFields(row),
    });
    return row;
  }

  const finish = (
    refundNo: string,
    to: 'succeeded' | 'failed',
    reason?: string | null,
    channelRef?: string,
  ) => transactionWithRetry(db, (tx) => finishIn(tx, refundNo, to, reason ?? null, channelRef));

  async function findForMerchant(merchantId: number, ref: { refundNo?: string; outRefundNo?: string }) {
    const row = await repo.findOfMerchant(db, merchantId, ref);
    // Another merchant's refund (or one of the other mode) reads as one that does not exist.
    if (!row) throw notFound('The refund was not found.');
    return row;
  }

  const gatewayView = (row: RefundRow, livemode: boolean): GatewayRefund => ({
    ...refundGatewayFields(row),
    livemode,
  });

  async function detail(merchantId: number, refundNo: string): Promise<RefundDetail> {
    const row = await findForMerchant(merchantId, { refundNo });
    const events = await callbacks.eventsOf(db, merchantId, 'refund', row.id);
    const timeline: RefundDetail['timeline'] = [{ step: 'created', at: row.createdAt.toISOString() }];
    if (row.finishedAt) timeline.push({ step: row.status as 'succeeded', at: row.finishedAt.toISOString() });
    const notified = firstDelivery(events);
    if (notified) timeline.push({ step: 'notified', at: notified });
    timeline.sort((a, b) => a.at.localeCompare(b.at));
    return { ...refundView(row), timeline, callbacks: events };
  }

  /** Today's refunds that did not fail, for the dashboard. */
  async function today(merchantId: number, currency: Currency, day: { from: Date; to: Date }) {
    const { amountMinor, count } = await repo.today(db, merchantId, day.from, day.to);
    return { amount: fromMinor(amountMinor, currency), count, currency };
  }

  /** A refund by number for a channel's job: its order's numbers with it. */
  async function findAny(refundNo: string) {
    const found = await repo.findAnyByRefundNo(db, refundNo);
    if (!found) return undefined;
    return {
      refundNo: found.refund.refundNo,
      tradeNo: found.tradeNo,
      status: found.refund.status,
      channelId: found.refund.channelId,
      amountMinor: found.refund.amountMinor,
      currency: found.refund.currency,
      collectionRef: found.collectionRef,
      channelRef: found.refund.channelRef,
    };
  }

  /** The operator's queue: refunds waiting for staff on channels refunded by hand, oldest first. */
  async function listForOps(query: OpsRefundListQuery) {
    const byHand = allAdapters()
      .filter((adapter) => adapter.refundsByOperator)
      .map((adapter) => adapter.provider);
    const rows = await repo.processingOn(db, byHand, query.limit);
    return rows.map(({ refund, merchantNo }) => refundForOps(refund, merchantNo));
  }

  /** Refunds in processing since before `before` on these providers' channels (the housekeeping sweep). */
  async function inFlight(providers: readonly string[], before: Date, limit = 1000) {
    const rows = await repo.processingOn(db, providers, limit, before);
    return rows.map(({ refund, provider }) => ({
      kind: 'refund' as const,
      number: refund.refundNo,
      status: refund.status,
      channelRef: refund.channelRef,
      provider,
    }));
  }

  /** The staff sent the money back (or could not): the refund ends, as a channel would end it. */
  function completeByOperator(body: CompleteRefundBody, context: ActionContext) {
    return runOperatorAction(db, 'refund.complete', context, body, null, async (tx) => {
      // Only a refund the staff pay back by hand: one its channel is still working on would otherwise
      // be given back here while the provider pays the payer too.
      const found = await repo.findAnyByRefundNo(tx, body.refund_no);
      if (!found) throw notFound('The refund was not found.');
      const channel = await findChannelById(tx, found.refund.channelId);
      if (!channel || !adapterFor(channel.provider).refundsByOperator) {
        throw conflict(
          `Refund ${body.refund_no} is its channel's to finish (${found.refund.channelCode}), not an operator's.`,
          ERROR_CODES.invalidTransition,
        );
      }
      const row = await finishIn(
        tx,
        body.refund_no,
        body.result,
        body.result === 'failed' ? body.reason : null,
      );
      return { data: { refund: refundForOps(row, null) }, merchantId: row.merchantId };
    });
  }

  return {
    create,
    finish,
    finishIn,
    findForMerchant,
    gatewayView,
    detail,
    today,
    findAny,
    inFlight,
    listForOps,
    completeByOperator,
  };
}

/** The demo seed's history: a refund written as it ended (its ledger entries are the seed's to post). */
export const seedRefundRow = repo.insert;
