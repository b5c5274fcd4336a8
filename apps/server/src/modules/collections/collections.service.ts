import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import {
  type Collection,
  type CollectionStatus,
  type CreateCollectionBody,
  feeOf,
  type GatewayCollection,
  type SettlementStatus,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { randomInt } from 'node:crypto';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { type CallbacksService, firstDelivery } from '../callbacks/index.ts';
import type { DeferredClaim } from '../gateway/index.ts';
import {
  adapterFor,
  type AdapterSettings,
  attemptsOf,
  type ChannelRow,
  channelUnavailable,
  COLLECTION_OUTCOMES,
  findChannelById,
  type ChannelAdapter,
  type FailOver,
  channelsForOrder,
  failOverToNext,
  type ProviderFailure,
  recordAttemptOutcome,
  recordAttemptOutcomes,
  routeOf,
  type RoutingTable,
  sendFollowUp,
} from '../channels/index.ts';
import { sqlStateOf, transactionWithRetry } from '../ledger/index.ts';
import type { LimitsService } from '../limits/index.ts';
import { orderRollupMoves, type OrderRollupMoves } from '../lists/index.ts';
import {
  type CollectionRow,
  collectionsRepository as repo,
  type NewCollection,
} from './collections.repository.ts';
import type { Viewer } from '../../plugins/auth-context.ts';
import { isoOrNull } from '../../lib/timezone.ts';

// Collection (pay-in) orders (DESIGN sections 4 and 6): to_be_paid -> paid | closed (expired) | failed.
// The fee is frozen on the order at creation. Every final state writes its callback event in the same
// transaction. Paid orders wait for their settlement batch (settlements.service.ts), which moves the money.

export type MerchantRef = { id: number; no: string; name: string; currency: Currency };
export type { Viewer };

type Deps = {
  db: Db;
  jobs: JobQueue;
  callbacks: CallbacksService;
  now: () => Date;
  publicUrl: string;
  /** What this server's configuration allows the channels' adapters (takesNewOrders). */
  adapterSettings: AdapterSettings;
  /** The merchant's limits and payer IP block list (DESIGN 14), checked in the order's transaction. */
  limits: Pick<LimitsService, 'enforce'>;
  /** In [0, 1): how orders are shared among channels by weight (routing). */
  random?: () => number;
};

const defaultRandom = () => randomInt(0, 1_000_000) / 1_000_000;

/**
 * Ours, time-ordered: "C" + UTC yyyyMMddHHmmssSSS + 6 random digits. Two in the same millisecond may
 * still clash: creation then retries with a new number (withFreshTradeNo).
 */
export function newTradeNo(prefix: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17);
  return `${prefix}${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/**
 * A new order's first values (collections, payouts): its merchant, its channel, and our number drawn at
 * `at` with the kind's prefix.
 */
export const newOrderHead = (
  prefix: 'C' | 'P',
  merchant: { id: number },
  channel: { id: number; code: string },
  at: Date,
) => ({
  merchantId: merchant.id,
  channelId: channel.id,
  channelCode: channel.code,
  tradeNo: newTradeNo(prefix, at),
});

/**
 * The first fields of an order as the gateway shows it (collections, payouts): both numbers, its status,
 * amount and fee in its currency, and its channel.
 */
export function orderGatewayHead<S extends string>(
  row: {
    tradeNo: string;
    outTradeNo: string;
    amountMinor: bigint;
    feeMinor: bigint;
    currency: string;
    channelCode: string;
  },
  status: S,
) {
  const currency = row.currency as Currency;
  return {
    trade_no: row.tradeNo,
    out_trade_no: row.outTradeNo,
    status,
    amount: fromMinor(row.amountMinor, currency),
    fee: fromMinor(row.feeMinor, currency),
    currency,
    channel: row.channelCode,
  };
}

const causeOf = (error: unknown): unknown => (error as { cause?: unknown })?.cause ?? error;

/** The unique trade_no refused a new order's number (not the merchant's out_trade_no). */
const isTradeNoClash = (error: unknown): boolean => {
  const cause = causeOf(error) as { constraint?: string; message?: string };
  return (
    sqlStateOf(error) === '23505' &&
    /trade_no_unique/.test(`${cause?.constraint ?? ''} ${cause?.message ?? ''}`)
  );
};

/** Runs a creation again (it draws a new number) when its number clashed; anything else is thrown. */
export async function withFreshTradeNo<T>(create: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (attempt >= 5 || !isTradeNoClash(error)) throw error;
    }
  }
}

/** An order as the console shows it (the list and the detail). */
export function collectionView(row: CollectionRow, settlementNo: string | null = null): Collection {
  const currency = row.currency as Currency;
  return {
    trade_no: row.tradeNo,
    out_trade_no: row.outTradeNo,
    status: row.status as CollectionStatus,
    settlement_status: row.settlementStatus as SettlementStatus,
    amount: fromMinor(row.amountMinor, currency),
    fee: fromMinor(row.feeMinor, currency),
    currency,
    channel: row.channelCode,
    payer_name: row.payerName,
    note: row.note,
    channel_ref: row.channelRef,
    settlement_no: settlementNo,
    created_at: row.createdAt.toISOString(),
    paid_at: isoOrNull(row.paidAt),
    expires_at: row.expiresAt.toISOString(),
    settled_at: isoOrNull(row.settledAt),
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;

export function createCollectionsService({
  db,
  jobs,
  callbacks,
  now,
  publicUrl,
  adapterSettings,
  limits,
  random = defaultRandom,
}: Deps) {
  // The adapter's pay page: a path of this server gets its public address in front (PUBLIC_URL, else the
  // origin the caller reached, when there is a caller: a callback without PUBLIC_URL carries the path).
  const payUrlOf = (row: CollectionRow, origin = '') =>
    row.payUrl === null
      ? ''
      : row.payUrl.startsWith('/')
        ? `${publicUrl || origin}${row.payUrl}`
        : row.payUrl;

  /**
   * A collection as the gateway answers it, in the mode of the key that asked; `origin` (the scheme and
   * host the call reached) makes pay_url absolute when PUBLIC_URL is not set.
   */
  const gatewayView = (row: CollectionRow, livemode: boolean, origin?: string): GatewayCollection => ({
    ...gatewayFields(row, origin),
    livemode,
  });

  /** The collection as its callbacks carry it; the callbacks add `livemode` themselves. */
  function gatewayFields(row: CollectionRow, origin?: string): Omit<GatewayCollection, 'livemode'> {
    return {
      ...orderGatewayHead(row, row.status as CollectionStatus),
      pay_url: payUrlOf(row, origin),
      expires_at: row.expiresAt.toISOString(),
      created_at: row.createdAt.toISOString(),
      paid_at: isoOrNull(row.paidAt),
      settlement_status: row.settlementStatus as SettlementStatus,
    };
  }

  /**
   * The routing table each merchant's calls last read (DESIGN 14), or the channel a call named. A new order
   * on the channel chosen from it in memory is one statement that inserts only while the channel (and,
   * routed, every channel of the kind) still reads so (see insertOnChannel); anything else reads again.
   */
  const channelMemory = new Map<string, RoutingTable>();
  const CHANNEL_MEMORY_MAX = 10_000;
  const memoryKeyOf = (merchant: MerchantRef, body: CreateCollectionBody) =>
    `${merchant.id}:${body.channel ?? ''}`;

  /**
   * A gateway order whose call's nonce is not claimed yet (DeferredClaim): on a remembered channel the
   * claim and the order are one statement; anything else claims the nonce first, then goes on as create.
   */
  async function createClaiming(
    merchant: MerchantRef,
    body: CreateCollectionBody,
    claim: DeferredClaim,
  ): Promise<CollectionRow> {
    let amountMinor = 0n;
    try {
      amountMinor = toMinor(body.amount, merchant.currency);
    } catch {
      // Refused: the long way below gives the refusal, once the nonce is claimed.
    }
    const remembered = amountMinor > 0n ? onRememberedChannel(merchant, body, amountMinor) : undefined;
    if (remembered) {
      const { seen, order } = remembered;
      const made = await withFreshTradeNo(() =>
        repo.insertOnChannelClaiming(db, order.values(), seen, !body.channel, claim.sql),
      );
      if (made.current && !made.claimed) throw claim.reused();
      if (made.row) return made.row;
      // Claimed, but the channel or the out_trade_no said no: the long way decides, on the same merchant.
      if (made.current) return create(merchant, body);
    }
    return create(await claim.confirm(), body);
  }

  /**
   * The order on the channel this process remembers for the call, when it remembers one (and its adapter
   * needs no follow-up job for it) and its terms take the order; else undefined, and the channel is read
   * again.
   */
  function onRememberedChannel(merchant: MerchantRef, body: CreateCollectionBody, amountMinor: bigint) {
    const table = channelMemory.get(memoryKeyOf(merchant, body));
    const seen = table && (body.channel ? table.channels[0] : routeOf(table, amountMinor, now(), random));
    if (!seen || adapterFor(seen.provider).collectionFollowsUp(seen)) return undefined;
    try {
      return { seen, order: newOrder(merchant, body, seen, amountMinor) };
    } catch {
      // Refused on the remembered terms: the channel is read again, and the current terms decide.
      return undefined;
    }
  }

  async function create(merchant: MerchantRef, body: CreateCollectionBody): Promise<CollectionRow> {
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(body.amount, merchant.currency);
    } catch (error) {
      throw ValidationError.field('amount', (error as Error).message);
    }
    if (amountMinor <= 0n) throw ValidationError.field('amount', 'The amount must be greater than 0.');
    const memoryKey = memoryKeyOf(merchant, body);
    const remembered = onRememberedChannel(merchant, body, amountMinor);
    if (remembered) {
      const { seen, order } = remembered;
      const row = await withFreshTradeNo(() => repo.insertOnChannel(db, order.values(), seen, !body.channel));
      if (row) return row;
    }
    const table = await channelsForOrder(db, merchant.id, 'collection', body.channel, adapterSettings);
    if (!table) {
      channelMemory.delete(memoryKey);
      throw channelUnavailable('collection', body.channel);
    }
    setNewest(channelMemory, memoryKey, table, CHANNEL_MEMORY_MAX);
    const channel = body.channel ? table.channels[0] : routeOf(table, amountMinor, now(), random);
    const order = newOrder(merchant, body, channel, amountMinor);
    const saved = (row: CollectionRow | undefined, db: DbOrTx) =>
      row ?? outTradeNoTaken(db, merchant.id, body);
    // The order, its attempt and (an adapter that follows the order up: the sandbox's auto mode) its job
    // commit together, after the merchant's limits and payer IP block list (DESIGN 14): a refusal rolls
    // back, nothing written. The one-statement way above is for merchants without any (noRiskRulesWhere).
    const followsUp = adapterFor(channel.provider).collectionFollowsUp(channel);
    return withFreshTradeNo(() =>
      transactionWithRetry(db, async (tx) => {
        await limits.enforce(tx, {
          merchantId: merchant.id,
          kind: 'collection',
          amountMinor,
          ...(body.payer_ip === undefined ? {} : { payerIp: body.payer_ip }),
        });
        const row = await saved(await repo.insert(tx, order.values()), tx);
        if (followsUp) await sendFollowUp(jobs, tx, order.start(row.tradeNo).followUp);
        return row;
      }),
    );
  }

  /**
   * A provider call for an unpaid order failed (DESIGN 14). Safe to retry elsewhere (its adapter says the
   * provider never had it) and another channel takes it: the attempt fails and a new one starts there,
   * the order keeping its trade_no, amount and fee ('moved'), when routing chose its channel; one whose
   * call named its channel is forced and never moves. Otherwise 'stay': its adapter goes on as it would
   * (a collection moves no money, so nothing waits for review).
   */
  async function failOver(tradeNo: string, failure: ProviderFailure): Promise<FailOver> {
    return transactionWithRetry(db, async (tx) => {
      const order = await repo.findAnyByTradeNo(tx, tradeNo);
      if (!order || order.status !== 'to_be_paid' || order.channelRef) return 'stay';
      const from = await findChannelById(tx, order.channelId);
      if (!from || !adapterFor(from.provider).isSafeToRetryElsewhere(failure)) return 'stay';
      // A channel the call named is forced: the order stays on it, as when no other channel takes it.
      if (!order.routed) return 'stay';
      const at = now();
      const moving = {
        kind: 'collection' as const,
        id: order.id,
        merchantId: order.merchantId,
        amountMinor: order.amountMinor,
      };
      let start: ReturnType<ChannelAdapter['createCollection']> | undefined;
      const routing = { settings: adapterSettings, at, random };
      const next = await failOverToNext(tx, moving, from, failure, routing, async (next) => {
        // The provider's page for the order on the new channel: the order moves with it.
        start = adapterFor(next.provider).createCollection(next, { tradeNo, createdAt: at });
        const set = { channelId: next.id, channelCode: next.code, payUrl: start.payUrl };
        return (await repo.moveToChannel(tx, order.id, from.id, set)) !== undefined;
      });
      if (!next || !start) return 'stay';
      await sendFollowUp(jobs, tx, start.followUp);
      return 'moved';
    });
  }

  /**
   * The order on this channel's terms (its limits, the fee frozen on it, its expiry), or the refusal;
   * `values()` gives it a new trade_no each time (a clash is retried with another).
   */
  function newOrder(
    merchant: MerchantRef,
    body: CreateCollectionBody,
    channel: ChannelRow,
    amountMinor: bigint,
  ) {
    checkLimits(channel, amountMinor, merchant.currency);
    const feeMinor = feeOf(amountMinor, channel.feeRatePpm, channel.fixedFeeMinor);
    if (feeMinor >= amountMinor) {
      throw ValidationError.field(
        'amount',
        'The amount must be greater than the fee.',
        ERROR_CODES.amountOutOfRange,
      );
    }
    const at = now();
    const expiresAt = new Date(at.getTime() + channel.expiryMinutes * 60_000);
    // What the channel's adapter needs for the order (its pay URL, a follow-up job): no I/O.
    const start = (tradeNo: string) =>
      adapterFor(channel.provider).createCollection(channel, { tradeNo, createdAt: at });
    return {
      createdAt: at,
      start,
      values: (): NewCollection => {
        const head = newOrderHead('C', merchant, channel, at);
        return {
          ...head,
          payUrl: start(head.tradeNo).payUrl,
          outTradeNo: body.out_trade_no,
          amountMinor,
          feeMinor,
          currency: merchant.currency,
          notifyUrl: body.notify_url ?? null,
          returnUrl: body.return_url ?? null,
          payerName: body.payer_name ?? null,
          note: body.note ?? null,
          // A call that named its channel forced it: failover never moves the order (DESIGN 14).
          routed: !body.channel,
          expiresAt,
          createdAt: at,
        };
      },
    };
  }

  /** A 409 naming the order that already has the merchant's number. */
  async function outTradeNoTaken(db: DbOrTx, merchantId: number, body: CreateCollectionBody): Promise<never> {
    const existing = await repo.findOfMerchant(db, merchantId, { outTradeNo: body.out_trade_no });
    throw new AppError(409, `The merchant order number ${body.out_trade_no} is already used.`, {
      code: ERROR_CODES.outTradeNoTaken,
      fields: { trade_no: existing?.tradeNo ?? null },
    });
  }

  /**
   * to_be_paid -> paid | failed | closed, with its callback, in one transaction. A repeat or a race answers
   * 409 and changes nothing. `closed` only once the order has expired.
   */
  async function finish(
    tradeNo: string,
    status: 'paid' | 'failed' | 'closed',
    /** The channel's own number for the order, when the channel reported it. */
    channelRef?: string,
  ): Promise<CollectionRow> {
    return transactionWithRetry(db, (tx) => finishIn(tx, tradeNo, status, channelRef));
  }

  /**
   * finish, in the caller's transaction (a received payment applied with its record). `paidBy`: when the
   * payer's bank says the money left; a payment made before the order expired pays it even if the news
   * comes after (as long as the order is still unpaid: a closed order stays closed).
   */
  async function finishIn(
    tx: Tx,
    tradeNo: string,
    status: 'paid' | 'failed' | 'closed',
    channelRef?: string,
    paidBy?: Date,
    /** The order as the caller just read it in this transaction (saves reading it again). */
    known?: CollectionRow,
  ): Promise<CollectionRow> {
    const order = known ?? (await repo.findAnyByTradeNo(tx, tradeNo));
    if (!order) throw notFound('The order was not found.');
    const at = now();
    const payerTime = status === 'paid' && paidBy ? paidBy : at;
    if (status !== 'closed' && order.expiresAt <= payerTime) {
      throw conflict('The order has expired and can no longer be paid.', ERROR_CODES.orderNotPayable);
    }
    const row = await repo.finish(
      tx,
      order.id,
      { status, at, channelRef },
      status === 'closed' ? at : undefined,
    );
    if (!row) {
      throw conflict(
        `The order is ${order.status}; it cannot become ${status}.`,
        ERROR_CODES.invalidTransition,
      );
    }
    await recordAttemptOutcome(
      tx,
      { kind: 'collection', id: row.id, merchantId: row.merchantId },
      {
        outcome: COLLECTION_OUTCOMES[status],
        at,
        channelRef,
      },
    );
    await notify(tx, row);
    return row;
  }

  /**
   * finishIn(paid) for many orders of one channel at once (a statement import): one update, one update of
   * their attempts and one insert of their callbacks. Answers the orders it paid; one no longer unpaid (a
   * race) is left out, for the caller to keep for review. Their rollups are counted by `rollups`
   * (paidRollups), which the caller applies once, after its last batch.
   */
  async function payManyIn(
    tx: Tx,
    merchantId: number,
    items: { order: CollectionRow; channelRef: string }[],
    rollups: OrderRollupMoves,
  ): Promise<CollectionRow[]> {
    const at = now();
    const paid = await repo.payMany(
      tx,
      items.map((i) => ({ id: i.order.id, channelRef: i.channelRef })),
      at,
      rollups,
    );
    await recordAttemptOutcomes(
      tx,
      { kind: 'collection', merchantId },
      paid.map((row) => ({ orderId: row.id, channelRef: row.channelRef ?? '' })),
      { outcome: COLLECTION_OUTCOMES.paid, at },
    );
    await callbacks.enqueueMany(
      tx,
      paid.map((row) => ({
        merchantId: row.merchantId,
        type: 'collection.paid' as const,
        refType: 'collection',
        refId: row.id,
        url: row.notifyUrl,
        data: gatewayFields(row),
      })),
    );
    return paid;
  }

  /** The rollups of orders payManyIn pays: applied by the caller after its last batch, before the commit. */
  const paidRollups = () => orderRollupMoves('collection', 'to_be_paid');

  /** Orders of a channel by their numbers (a statement's lines), in the caller's transaction. */
  const ofChannelIn = (tx: Tx, channelId: number, tradeNos: string[]) =>
    repo.ofChannelByTradeNos(tx, channelId, tradeNos);

  async function notify(tx: Tx, row: CollectionRow) {
    await callbacks.enqueue(tx, {
      merchantId: row.merchantId,
      type: `collection.${row.status}` as 'collection.paid' | 'collection.failed' | 'collection.closed',
      refType: 'collection',
      refId: row.id,
      url: row.notifyUrl,
      data: gatewayFields(row),
    });
  }

  /** Closes the order if it is still unpaid at its expiry; anything else is a no-op. */
  async function expire(tradeNo: string): Promise<CollectionRow | null> {
    try {
      return await finish(tradeNo, 'closed');
    } catch (error) {
      if (error instanceof AppError && (error.status === 409 || error.status === 404)) return null;
      throw error;
    }
  }

  /**
   * The expiry sweep (the `collection.expire` job, every minute): closes every unpaid order past its
   * expiry, oldest first, in batches until none is left. Each close is its own transaction with its
   * callback, and a repeat or a race with a payment is a no-op. Until the sweep runs, an expired order
   * already refuses payment (finish). Answers how many it closed.
   */
  async function expireOverdue(batch = 500): Promise<number> {
    let closed = 0;
    for (;;) {
      const due = await repo.overdue(db, now(), batch);
      for (const tradeNo of due) if (await expire(tradeNo)) closed += 1;
      if (due.length < batch) return closed;
    }
  }

  async function findForMerchant(merchantId: number, ref: { tradeNo?: string; outTradeNo?: string }) {
    const row =
      ref.tradeNo !== undefined
        ? await repo.findOfMerchantTogether(db, merchantId, ref.tradeNo)
        : await repo.findOfMerchant(db, merchantId, ref);
    // Another merchant's order reads as one that does not exist.
    if (!row) throw notFound('The order was not found.');
    return row;
  }

  async function detail(
    viewer: Viewer,
    tradeNo: string,
    settlementNoOf: (id: number) => Promise<string | null>,
  ) {
    const row = await findForMerchant(viewer.merchantId, { tradeNo });
    const events = await callbacks.eventsOf(db, viewer.merchantId, 'collection', row.id);
    const timeline: {
      step: 'created' | 'paid' | 'failed' | 'closed' | 'settled' | 'notified';
      at: string;
    }[] = [{ step: 'created', at: row.createdAt.toISOString() }];
    if (row.paidAt) timeline.push({ step: 'paid', at: row.paidAt.toISOString() });
    if (row.finishedAt)
      timeline.push({ step: row.status as 'failed' | 'closed', at: row.finishedAt.toISOString() });
    const notified = firstDelivery(events);
    if (notified) timeline.push({ step: 'notified', at: notified });
    if (row.settledAt) timeline.push({ step: 'settled', at: row.settledAt.toISOString() });
    timeline.sort((a, b) => a.at.localeCompare(b.at));
    const settlementNo = row.settlementId ? await settlementNoOf(row.settlementId) : null;
    const attempts = await attemptsOf(db, viewer.merchantId, 'collection', row.id);
    const refunded = fromMinor(row.refundedMinor, row.currency as Currency);
    return { ...collectionView(row, settlementNo), timeline, refunded, callbacks: events, attempts };
  }

  const { today, series } = repo.dashboard(db);

  /** Any merchant's order by its number (a channel's checkout page and its adapter's jobs). */
  const findAny = (tradeNo: string) => repo.findAnyByTradeNo(db, tradeNo);
  /** A provider's own pay page for an unpaid order (its payment link): the order's pay_url leads there. */
  const setProviderLink = (tradeNo: string, providerRef: string, payUrl: string) =>
    repo.setProviderLink(db, tradeNo, providerRef, payUrl);
  /** findAny in the caller's transaction. */
  const findAnyIn = (tx: Tx, tradeNo: string) => repo.findAnyByTradeNo(tx, tradeNo);
  /** The number and name of the merchant an order is paid to, as the sandbox's checkout page shows them. */
  const merchantOf = (merchantId: number) => repo.merchantOf(db, merchantId);

  return {
    create,
    createClaiming,
    finish,
    finishIn,
    expire,
    expireOverdue,
    findForMerchant,
    detail,
    today,
    series,
    gatewayView,
    consoleView: collectionView,
    findAny,
    findAnyIn,
    payManyIn,
    paidRollups,
    ofChannelIn,
    setProviderLink,
    failOver,
    merchantOf,
  };
}

function checkLimits(channel: ChannelRow, amountMinor: bigint, currency: Currency) {
  if (amountMinor < channel.minAmountMinor || amountMinor > channel.maxAmountMinor) {
    throw ValidationError.field(
      'amount',
      `The amount must be between ${fromMinor(channel.minAmountMinor, currency)} and ${fromMinor(channel.maxAmountMinor, currency)}.`,
      ERROR_CODES.amountOutOfRange,
    );
  }
}

/** The demo seed's history: orders written as they ended, then attached to their batch and settled. */
export const seedCollectionRow = repo.insert;
export const attachToSettlement = repo.attachToBatch;
export const markCollectionsSettled = repo.markSettled;
/** Refunds (DESIGN 14): the order's refundable amount taken and given back, in the refund's transaction. */
export const claimCollectionRefund = repo.claimRefund;
export const giveBackCollectionRefund = repo.giveBackRefund;
