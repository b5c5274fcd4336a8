import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import { randomInt } from 'node:crypto';
import { type CallbackEventType, feeOf } from '@paydesk/shared/collections/collections.schemas.ts';
import { maskAccount, payeeIssues } from '@paydesk/shared/payouts/bank-rules.ts';
import {
  type AccountType,
  canTransition,
  DUPLICATE_WINDOW_MINUTES,
  type GatewayPayout,
  type PayeeFields,
  type Payout,
  type PayoutDetail,
  type PayoutStatus,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { type CallbacksService, firstDelivery } from '../callbacks/index.ts';
import {
  adapterFor,
  type AdapterSettings,
  attemptsOf,
  type ChannelRow,
  channelUnavailable,
  auditRouting,
  type FailOver,
  findChannelById,
  channelsForOrder,
  failOverToNext,
  PAYOUT_OUTCOMES,
  type ProviderFailure,
  recordAttemptOutcome,
  routeOf,
  type RoutingTable,
  followUpInsert,
  sendFollowUp,
} from '../channels/index.ts';
import { newOrderHead, orderGatewayHead, withFreshTradeNo } from '../collections/index.ts';
import { InsufficientFundsError, type Ledger, sqlStateOf, transactionWithRetry } from '../ledger/index.ts';
import {
  type KeyAnswer,
  type NewPayout,
  type PayoutRow,
  payoutsRepository as repo,
} from './payouts.repository.ts';
import type { DeferredClaim } from '../gateway/index.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import type { Viewer } from '../../plugins/auth-context.ts';
import type { LimitsService } from '../limits/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { isoOrNull } from '../../lib/timezone.ts';

// Payouts (DESIGN sections 3, 4 and 6): pending -> processing -> success | failed; pending -> cancelled |
// rejected; success -> refund_received. Creation holds amount + fee (insufficient funds: 422, nothing
// written); success captures the hold into the channel's clearing account and our fee revenue; failure,
// rejection and cancellation release it; a refund received gives the amount back (the fee is kept). Every
// change and its ledger entry and callback commit together; a transition not in the table answers 409.

export type MerchantRef = { id: number; no: string; currency: Currency };
export type { Viewer };

export type PayoutInput = PayeeFields & {
  outTradeNo?: string;
  amount: string;
  channel?: string;
  notifyUrl?: string | null;
  note?: string | null;
};

/** What a gateway payout's Idempotency-Key needs: the key, its body's hash, and how its answers read. */
export type IdempotencyInput<Row = PayoutRow> = {
  key: string;
  requestHash: string;
  answerOf: (row: Row) => { status: number; body: unknown };
  refusalOf: (error: AppError) => unknown;
};
/** A stored first answer of the key, replayed as it was sent. */
export type StoredAnswer = { replayed: true; status: number; body: string };
/** A payout (or, through keyedCreate, any object) this call created. */
export type Created<Row = PayoutRow> = { replayed: false; row: Row };

/** A payout sent from the console's form, by a signed-in user. */
export type ConsoleCreate = {
  source: 'console';
  merchant: MerchantRef;
  input: PayoutInput;
  userId: number;
  /** The user answered "send it again?" for a near-duplicate. */
  confirmDuplicate: boolean;
  /** The payment password and Google code: checked after the form's rules, before anything is written. */
  stepUp: () => Promise<void>;
};
/** A payout sent through the signed gateway. */
export type GatewayCreate = {
  source: 'gateway';
  merchant: MerchantRef;
  input: PayoutInput;
  /** The call's nonce when the signature check left its claim to the payout's statement. */
  claim?: DeferredClaim;
  /** The call's Idempotency-Key, when it sent one. */
  idempotency?: IdempotencyInput;
};
type CreateRequest = ConsoleCreate | GatewayCreate;

/** An approver's decision on a payout waiting for approval (DESIGN 16). */
export type ReviewRequest = {
  merchant: MerchantRef;
  userId: number;
  tradeNo: string;
  /** Writes the decision's security event in its transaction. */
  record: (tx: Tx, type: 'payout_approved' | 'payout_rejected', row: PayoutRow) => Promise<void>;
};

export type TransactionHooks<Row = PayoutRow> = {
  /** First in the creation's transaction. */
  first?: (tx: Tx) => Promise<void>;
  /** After the object's row, before the hold (the hold stays the last statement). */
  beforeHold?: (tx: Tx, row: Row) => Promise<void>;
};

const PAYOUT_CREATE = 'payout.create';

/** Errors after which a one-statement payout wrote nothing and the long way can answer. */
const RETRY_LONG_WAY = new Set(['23505', '40P01', '40001']);

/** Unwinds the creation's transaction when the key's answer turned out to be committed already. */
class KeyAnswered extends Error {
  readonly answer: StoredAnswer;
  constructor(answer: StoredAnswer) {
    super('The Idempotency-Key already has an answer.');
    this.answer = answer;
  }
}

type Deps = {
  db: Db;
  jobs: JobQueue;
  callbacks: CallbacksService;
  ledger: Pick<
    Ledger,
    'hold' | 'holdInStatement' | 'holdManyInStatement' | 'capture' | 'release' | 'post' | 'findHoldByKey'
  >;
  now: () => Date;
  /** What this server's configuration allows the channels' adapters (takesNewOrders). */
  adapterSettings: AdapterSettings;
  /**
   * The merchant's limits and block lists (DESIGN 14), enforced in the creation's transaction; a console
   * payout is checked against them (read only) before its step-up too.
   */
  limits: Pick<LimitsService, 'enforce' | 'check'>;
  /** In [0, 1): how payouts are shared among channels by weight (routing). */
  random?: () => number;
  /** The ROOT users' bell and email (DESIGN 16): a payout waiting for approval. */
  notifications: Pick<NotificationsService, 'notifyRoots'>;
};

const defaultRandom = () => randomInt(0, 1_000_000) / 1_000_000;

/** A new payout's row as its insert will read back (the answer an Idempotency-Key keeps is made of it). */
const asWritten = (values: NewPayout): PayoutRow => ({
  id: 0,
  status: 'pending',
  createdByUserId: null,
  bankCode: null,
  bankName: null,
  branchName: null,
  ifsc: null,
  cpfCnpj: null,
  notifyUrl: null,
  note: null,
  failureReason: null,
  channelRef: null,
  processingAt: null,
  finishedAt: null,
  refundedAt: null,
  routed: false,
  reviewedByUserId: null,
  reviewedAt: null,
  createdAt: new Date(),
  ...values,
});
const holdKey = (id: number) => `payout:${id}:deduct`;

const CALLBACK_OF: Partial<Record<PayoutStatus, CallbackEventType>> = {
  success: 'payout.succeeded',
  failed: 'payout.failed',
  rejected: 'payout.failed',
  cancelled: 'payout.failed',
  refund_received: 'payout.refunded',
};

/** A payout as the gateway answers it. */
/** A payout as the gateway and its callbacks show it, but its mode (callbacks add `livemode` themselves). */
export function payoutGatewayFields(row: PayoutRow): Omit<GatewayPayout, 'livemode'> {
  return {
    ...orderGatewayHead(row, row.status as PayoutStatus),
    payee_name: row.payeeName,
    account_no: maskAccount(row.accountNo),
    created_at: row.createdAt.toISOString(),
    finished_at: isoOrNull(row.finishedAt),
    failure_reason: row.failureReason,
  };
}

/** A payout as the gateway answers it, in the mode of the key that asked. */
export const payoutGatewayView = (row: PayoutRow, livemode: boolean): GatewayPayout => ({
  ...payoutGatewayFields(row),
  livemode,
});

/** A payout as the console shows it (the list and the detail). */
export function payoutView(row: PayoutRow): Payout {
  return {
    ...payoutGatewayFields(row),
    account_type: row.accountType as AccountType,
    bank_code: row.bankCode,
    bank_name: row.bankName,
    branch_name: row.branchName,
    ifsc: row.ifsc,
    cpf_cnpj: row.cpfCnpj ? maskAccount(row.cpfCnpj) : null,
    note: row.note,
    channel_ref: row.channelRef,
    source: row.source as 'console' | 'gateway',
    created_by_user_id: row.createdByUserId,
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;

export function createPayoutsService({
  db,
  jobs,
  callbacks,
  ledger,
  now,
  adapterSettings,
  limits,
  random = defaultRandom,
  notifications,
}: Deps) {
  /** The holds of gateway payouts written together (group commit, repo.insertHoldingClaiming). */
  const holdMany = ledger.holdManyInStatement({ type: 'payout_deduction', refType: 'payout' });
  const keyed = keyedCreate({ db, now });
  const gatewayView = payoutGatewayView;
  const consoleView = payoutView;
  /**
   * The payout on this channel's terms (the payee's fields for its country, its limits, the fee frozen on
   * it), or the refusal; `values()` gives it a new trade_no each time (a clash is retried with another).
   */
  function newPayout(
    merchant: MerchantRef,
    input: PayoutInput,
    channel: ChannelRow,
    options: { source: 'console' | 'gateway'; userId?: number },
  ) {
    const issues = payeeIssues(channel.country as 'CN', input);
    if (Object.keys(issues).length > 0) {
      throw new ValidationError(
        Object.fromEntries(Object.entries(issues).map(([field, issue]) => [field, [issue!.message]])),
      );
    }
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, merchant.currency);
    } catch (error) {
      throw ValidationError.field('amount', (error as Error).message);
    }
    if (amountMinor < channel.minAmountMinor || amountMinor > channel.maxAmountMinor) {
      throw ValidationError.field(
        'amount',
        `The amount must be between ${fromMinor(channel.minAmountMinor, merchant.currency)} and ${fromMinor(channel.maxAmountMinor, merchant.currency)}.`,
        ERROR_CODES.amountOutOfRange,
      );
    }
    const at = now();
    const feeMinor = feeOf(amountMinor, channel.feeRatePpm, channel.fixedFeeMinor);
    return {
      amountMinor,
      feeMinor,
      values: (): NewPayout => {
        const head = newOrderHead('P', merchant, channel, at);
        return {
          ...head,
          outTradeNo: input.outTradeNo ?? `WEB${head.tradeNo.slice(1)}`,
          source: options.source,
          createdByUserId: options.userId ?? null,
          amountMinor,
          feeMinor,
          currency: merchant.currency,
          accountType: input.account_type,
          bankCode: input.bank_code ?? null,
          bankName: input.bank_name ?? null,
          branchName: input.branch_name ?? null,
          ifsc: input.ifsc?.toUpperCase() ?? null,
          cpfCnpj: input.cpf_cnpj ?? null,
          payeeName: input.payee_name,
          accountNo: input.account_no.replace(/\s+/g, ''),
          notifyUrl: input.notifyUrl ?? null,
          note: input.note ?? null,
          // A call that named its channel forced it: failover never moves the payout (DESIGN 14).
          routed: !input.channel,
          createdAt: at,
        };
      },
    };
  }

  /**
   * The payout routing table each merchant's gateway calls last read (DESIGN 14), or the channel a call
   * named. A payout on the channel chosen from it in memory is one statement that goes ahead only while
   * the channel (and, routed, every payout channel of the merchant) still reads so (createClaiming);
   * anything else reads again.
   */
  const channelMemory = new Map<string, RoutingTable>();
  const CHANNEL_MEMORY_MAX = 10_000;
  const memoryKeyOf = (merchant: MerchantRef, input: PayoutInput) => `${merchant.id}:${input.channel ?? ''}`;

  /** Creates the payout and holds amount + fee, in one transaction; the hold is its last statement. */
  async function insertAndHold(
    merchant: MerchantRef,
    input: PayoutInput,
    options: { source: 'console' | 'gateway'; userId?: number },
    inTransaction: TransactionHooks = {},
  ): Promise<PayoutRow> {
    const table = await channelsForOrder(db, merchant.id, 'payout', input.channel, adapterSettings);
    if (!table) {
      channelMemory.delete(memoryKeyOf(merchant, input));
      throw channelUnavailable('payout', input.channel);
    }
    if (options.source === 'gateway')
      setNewest(channelMemory, memoryKeyOf(merchant, input), table, CHANNEL_MEMORY_MAX);
    const channel = chosenFrom(table, merchant, input);
    const payout = newPayout(merchant, input, channel, options);
    return withFreshTradeNo(() =>
      transactionWithRetry(db, async (tx) => {
        await inTransaction.first?.(tx);
        // Limits and block lists (DESIGN 14): a refusal rolls this transaction back, nothing written.
        // The one-statement way never runs for a merchant that has any (noRiskRulesWhere).
        await limits.enforce(tx, {
          merchantId: merchant.id,
          kind: 'payout',
          amountMinor: payout.amountMinor,
          payeeAccount: input.account_no.replace(/\s+/g, ''),
        });
        // Payout approval (DESIGN 16): at or above the source's threshold it waits, held, unsent.
        const waits = await needsApproval(tx, merchant.id, options.source, payout.amountMinor);
        const values = { ...payout.values(), ...(waits ? { status: 'pending_approval' } : {}) };
        const row = await repo.insert(tx, values);
        if (!row) {
          const existing = await repo.findOfMerchant(tx, merchant.id, { outTradeNo: input.outTradeNo ?? '' });
          throw new AppError(409, `The merchant order number ${input.outTradeNo} is already used.`, {
            code: ERROR_CODES.outTradeNoTaken,
            fields: { trade_no: existing?.tradeNo ?? null },
          });
        }
        // Submitted to its channel: the adapter's follow-up job takes it from here. A payout waiting for
        // approval is submitted when it is approved.
        if (waits) await onPendingApproval(tx, row, merchant);
        else await submit(tx, channel, row);
        await inTransaction.beforeHold?.(tx, row);
        // Last: the merchant's balance row is locked from here to the commit only.
        await ledger.hold(tx, {
          merchantId: merchant.id,
          type: 'payout_deduction',
          amountMinor: payout.amountMinor + payout.feeMinor,
          refType: 'payout',
          refId: String(row.id),
          refNo: row.tradeNo,
          note: row.payeeName,
          idempotencyKey: holdKey(row.id),
        });
        return row;
      }),
    );
  }

  /** Whether a new payout of this amount waits for approval: the source's threshold is on and reached. */
  async function needsApproval(
    tx: Tx,
    merchantId: number,
    source: 'console' | 'gateway',
    amountMinor: bigint,
  ): Promise<boolean> {
    const settings = await repo.approvalSettings(tx, merchantId);
    const threshold =
      (source === 'console' ? settings?.consoleThresholdMinor : settings?.gatewayThresholdMinor) ?? 0n;
    return threshold > 0n && amountMinor >= threshold;
  }

  /** Sends the payout to its channel: the adapter's follow-up job, in the caller's transaction. */
  async function submit(tx: Tx, channel: ChannelRow, row: PayoutRow) {
    const { followUp } = adapterFor(channel.provider).submitPayout(channel, { tradeNo: row.tradeNo });
    await sendFollowUp(jobs, tx, followUp);
  }

  /** The named channel, or the one routing chooses for the amount (its first, for an amount it cannot read). */
  function chosenFrom(table: RoutingTable, merchant: MerchantRef, input: PayoutInput): ChannelRow {
    if (input.channel) return table.channels[0];
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, merchant.currency);
    } catch {
      return table.channels[0];
    }
    return routeOf(table, amountMinor, now(), random);
  }

  /**
   * The provider call for a pending payout failed (DESIGN 14). Safe to retry elsewhere (its adapter says
   * the provider never had it) and another channel takes it: the attempt fails and a new one starts there,
   * the payout keeping its trade_no, hold and fee ('moved'; 'stay' when no other channel takes it, or when
   * the call named its channel: a forced payout never moves). Not
   * safe: the provider may have it, so it is never sent again; it goes to processing with its hold, its
   * attempt says why, and the operator's audit log lists it for review ('review').
   */
  async function failOver(tradeNo: string, failure: ProviderFailure): Promise<FailOver> {
    return transactionWithRetry(db, async (tx) => {
      const row = await repo.findAnyByTradeNo(tx, tradeNo);
      if (!row || row.status !== 'pending') return 'stay';
      const from = await findChannelById(tx, row.channelId);
      if (!from) return 'stay';
      const at = now();
      const ref = { kind: 'payout' as const, id: row.id, merchantId: row.merchantId };
      const adapter = adapterFor(from.provider);
      if (!adapter.isSafeToRetryElsewhere(failure)) {
        const held = await repo.transition(tx, row.id, 'pending', { status: 'processing', processingAt: at });
        if (!held) return 'stay';
        await recordAttemptOutcome(tx, ref, {
          outcome: 'processing',
          at,
          answer: { failure, review: true },
          channelFault: adapter.isChannelFault(failure),
        });
        await auditRouting(tx, {
          action: 'payout.review',
          merchantId: row.merchantId,
          reason: `The ${from.code} channel's answer to payout ${tradeNo} never came: it may have reached the bank, so it is not sent again.`,
          detail: { trade_no: tradeNo, channel: from.code, failure },
          at,
        });
        return 'review';
      }
      // A channel the call named is forced: the payout stays on it, as when no other channel takes it.
      if (!row.routed) return 'stay';
      const order = { ...ref, amountMinor: row.amountMinor };
      const routing = { settings: adapterSettings, at, random };
      const next = await failOverToNext(tx, order, from, failure, routing, async (next) => {
        const set = { channelId: next.id, channelCode: next.code };
        return (await repo.moveToChannel(tx, row.id, from.id, set)) !== undefined;
      });
      if (!next) return 'stay';
      const { followUp } = adapterFor(next.provider).submitPayout(next, { tradeNo });
      await sendFollowUp(jobs, tx, followUp);
      return 'moved';
    });
  }

  /**
   * A gateway payout whose call's nonce is not claimed yet (DeferredClaim). On a channel this process
   * remembers, the claim, the hold, the payout, its job and its journal entry are one statement: one
   * round trip and one commit, and the merchant's balance row is locked only for the rest of that
   * statement and its commit. Anything else claims the nonce first, then goes on as create.
   */
  async function createClaiming(
    merchant: MerchantRef,
    input: PayoutInput,
    claim: DeferredClaim,
  ): Promise<PayoutRow> {
    const made = await oneStatement(merchant, input, claim);
    if (!made || !made.current) return insertAndHold(await claim.confirm(), input, { source: 'gateway' });
    if (!made.claimed) throw claim.reused();
    if (!made.go) return insertAndHold(merchant, input, { source: 'gateway' });
    if (!made.row) throw new InsufficientFundsError();
    return made.row;
  }

  /**
   * createOnce for a call whose nonce is not claimed yet: on a remembered channel, the key's answer is
   * stored by the payout's one statement. Whatever that statement did not write (the key used or in
   * flight, the channel changed, the out_trade_no taken, funds short) the long way answers and keeps as
   * the key's answer, exactly as for any call.
   */
  async function createOnceClaiming(
    merchant: MerchantRef,
    input: PayoutInput,
    idempotency: IdempotencyInput,
    claim: DeferredClaim,
  ): Promise<Created | StoredAnswer> {
    const made = await oneStatement(merchant, input, claim, (row) => {
      const answer = idempotency.answerOf(row);
      return {
        key: idempotency.key,
        scope: PAYOUT_CREATE,
        requestHash: idempotency.requestHash,
        responseStatus: answer.status,
        responseBody: JSON.stringify(answer.body),
        at: row.createdAt,
      };
    });
    if (!made || !made.current) return createOnce(await claim.confirm(), input, idempotency);
    if (!made.claimed) throw claim.reused();
    if (!made.row) return createOnce(merchant, input, idempotency);
    return { replayed: false, row: made.row };
  }

  /**
   * The payout's one statement (repo.insertHoldingClaiming) on the channel this process remembers for
   * the call, when it remembers one and its terms take the payout; undefined when it does not, or when
   * the statement wrote nothing (a racing payout of the same out_trade_no or key, a deadlock with one).
   */
  async function oneStatement(
    merchant: MerchantRef,
    input: PayoutInput,
    claim: DeferredClaim,
    keyOf?: (row: PayoutRow) => KeyAnswer,
  ) {
    const table = channelMemory.get(memoryKeyOf(merchant, input));
    const seen = table && chosenFrom(table, merchant, input);
    let payout: ReturnType<typeof newPayout> | undefined;
    try {
      payout = seen && newPayout(merchant, input, seen, { source: 'gateway' });
    } catch {
      // Refused on the remembered terms: the long way reads the channel again and refuses, or not.
    }
    if (!seen || !payout) return undefined;
    const amountMinor = payout.amountMinor + payout.feeMinor;
    const hold = ledger.holdInStatement({
      merchantId: merchant.id,
      type: 'payout_deduction',
      refType: 'payout',
      amountMinor,
    });
    // Calls that arrive together may share one statement (each answers as its own would).
    const batch = { many: holdMany, holdRow: holdMany.rowOf(merchant.id, amountMinor) };
    try {
      return await withFreshTradeNo(async () => {
        const values = payout.values();
        const { followUp } = adapterFor(seen.provider).submitPayout(seen, { tradeNo: values.tradeNo });
        const job = await followUpInsert(jobs, followUp);
        const key = keyOf?.(asWritten(values));
        return repo.insertHoldingClaiming(db, values, seen, !input.channel, claim.sql, hold, job, key, batch);
      });
    } catch (error) {
      if (RETRY_LONG_WAY.has(sqlStateOf(error) ?? '')) return undefined;
      throw error;
    }
  }

  /** A gateway payout under an Idempotency-Key (DESIGN 6): see `keyedCreate`. */
  const createOnce = (merchant: MerchantRef, input: PayoutInput, idempotency: IdempotencyInput) =>
    keyed(PAYOUT_CREATE, merchant.id, idempotency, (hooks) =>
      insertAndHold(merchant, input, { source: 'gateway' }, hooks),
    );

  /**
   * The near-duplicate rule of the console's form (DESIGN 4): a payout of this amount to this account in the
   * last 10 minutes (that did not fail) asks to confirm first (409 possible_duplicate). It is asked before
   * the step-up, so the answer does not spend the user's Google code.
   */
  async function assertNotDuplicate(
    merchant: MerchantRef,
    input: Pick<PayoutInput, 'amount' | 'account_no'>,
  ) {
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, merchant.currency);
    } catch {
      return; // insertAndHold answers the malformed amount
    }
    const similar = await repo.recentSimilar(
      db,
      merchant.id,
      input.account_no.replace(/\s+/g, ''),
      amountMinor,
      new Date(now().getTime() - DUPLICATE_WINDOW_MINUTES * 60_000),
    );
    if (similar) {
      throw new AppError(
        409,
        `A payout of this amount to this account was sent in the last ${DUPLICATE_WINDOW_MINUTES} minutes (${similar.tradeNo}). Send it again?`,
        { code: ERROR_CODES.possibleDuplicate, fields: { trade_no: similar.tradeNo } },
      );
    }
  }

  /**
   * A console payout a limit or block list refuses is refused before the step-up (DESIGN 14), so the
   * refusal spends no Google code and no payment password attempt; insertAndHold enforces them again,
   * authoritatively, in the payout's transaction.
   */
  async function checkLimitsBeforeStepUp(merchant: MerchantRef, input: PayoutInput) {
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, merchant.currency);
    } catch {
      return; // insertAndHold answers the malformed amount
    }
    await limits.check({
      merchantId: merchant.id,
      kind: 'payout',
      amountMinor,
      payeeAccount: input.account_no.replace(/\s+/g, ''),
    });
  }

  /**
   * The one way to create a payout. The console's: its limits and block list (read only), the
   * near-duplicate rule unless confirmed, then the caller's step-up, then the payout. The gateway's:
   * under an Idempotency-Key its answer is kept (createOnce), and when the call's nonce is not claimed yet
   * the payout's one statement claims it (createClaiming, createOnceClaiming); the caller never picks
   * the way.
   */
  async function create(request: ConsoleCreate): Promise<Created>;
  async function create(request: GatewayCreate): Promise<Created | StoredAnswer>;
  async function create(request: CreateRequest): Promise<Created | StoredAnswer> {
    const { merchant, input } = request;
    if (request.source === 'console') {
      await checkLimitsBeforeStepUp(merchant, input);
      if (!request.confirmDuplicate) await assertNotDuplicate(merchant, input);
      await request.stepUp();
      const row = await insertAndHold(merchant, input, { source: 'console', userId: request.userId });
      return { replayed: false, row };
    }
    const { claim, idempotency } = request;
    if (idempotency) {
      return claim
        ? createOnceClaiming(merchant, input, idempotency, claim)
        : createOnce(merchant, input, idempotency);
    }
    const row = claim
      ? await createClaiming(merchant, input, claim)
      : await insertAndHold(merchant, input, { source: 'gateway' });
    return { replayed: false, row };
  }

  /**
   * Moves a payout along the life cycle with its ledger entry and callback, in one transaction. Anything
   * the table does not allow (or a racing change got there first) answers 409 and changes nothing.
   */
  async function transition(
    tradeNo: string,
    to: PayoutStatus,
    reason: string | null = null,
    /** The channel's own number for the payout, given when it takes it (to processing). */
    channelRef?: string,
  ): Promise<PayoutRow> {
    return transactionWithRetry(db, async (tx) => {
      const row = await repo.findAnyByTradeNo(tx, tradeNo);
      if (!row) throw notFound('The payout was not found.');
      const from = row.status as PayoutStatus;
      // A payout waiting for approval moves only by an approver's decision (approve, reject).
      if (from === 'pending_approval' || !canTransition(from, to)) {
        throw conflict(`The payout is ${from}; it cannot become ${to}.`, ERROR_CODES.invalidTransition);
      }
      const at = now();
      const set =
        to === 'processing'
          ? { status: to, processingAt: at, ...(channelRef === undefined ? {} : { channelRef }) }
          : to === 'refund_received'
            ? { status: to, refundedAt: at, failureReason: reason }
            : { status: to, finishedAt: at, failureReason: to === 'success' ? null : reason };
      const updated = await repo.transition(tx, row.id, from, set);
      if (!updated)
        throw conflict(
          `The payout changed meanwhile; it cannot become ${to}.`,
          ERROR_CODES.invalidTransition,
        );
      await moveMoney(tx, updated, to);
      await recordAttemptOutcome(
        tx,
        { kind: 'payout', id: updated.id, merchantId: updated.merchantId },
        { outcome: PAYOUT_OUTCOMES[to], at, channelRef },
      );
      const type = CALLBACK_OF[to];
      if (type) {
        await callbacks.enqueue(tx, {
          merchantId: updated.merchantId,
          type,
          refType: 'payout',
          refId: updated.id,
          url: updated.notifyUrl,
          data: payoutGatewayFields(updated),
        });
      }
      return updated;
    });
  }

  async function moveMoney(tx: Tx, row: PayoutRow, to: PayoutStatus) {
    if (to === 'processing') return;
    if (to === 'refund_received') {
      await ledger.post(tx, {
        merchantId: row.merchantId,
        type: 'payout_refund',
        amountMinor: row.amountMinor,
        channel: row.channelCode,
        refType: 'payout',
        refId: String(row.id),
        refNo: row.tradeNo,
        note: row.failureReason,
        idempotencyKey: `payout:${row.id}:refund`,
      });
      return;
    }
    const hold = await ledger.findHoldByKey(tx, row.merchantId, holdKey(row.id));
    if (!hold) throw new Error(`Payout ${row.tradeNo} has no hold.`);
    const key = `payout:${row.id}:${to}`;
    if (to === 'success') {
      await ledger.capture(tx, {
        merchantId: row.merchantId,
        holdId: hold.id,
        channel: row.channelCode,
        feeMinor: row.feeMinor,
        idempotencyKey: key,
      });
    } else {
      await ledger.release(tx, {
        merchantId: row.merchantId,
        holdId: hold.id,
        idempotencyKey: key,
        note: row.failureReason,
      });
    }
  }

  /**
   * A payout entered pending_approval (DESIGN 16): the merchant's ROOT users are told (the bell and an
   * email each) in its creation's transaction, its maker excepted.
   */
  async function onPendingApproval(tx: Tx, row: PayoutRow, merchant: MerchantRef & { name?: string }) {
    const maker = row.createdByUserId;
    const names = maker === null ? undefined : await repo.userNames(tx, [maker]);
    await notifications.notifyRoots(tx, {
      merchantId: row.merchantId,
      type: 'payout_pending_approval',
      params: {
        merchant: merchant.name ? `${merchant.name} (${merchant.no})` : merchant.no,
        actor: (maker !== null && names?.get(maker)) || 'Gateway API',
        at: row.createdAt.toISOString(),
        payout_no: row.tradeNo,
        amount: fromMinor(row.amountMinor, merchant.currency),
        currency: merchant.currency,
      },
      ...(maker === null ? {} : { excludeUserId: maker }),
    });
  }

  /**
   * Approves a payout waiting for approval (DESIGN 16): it goes on exactly as a payout created now would
   * (sent to the channel chosen at its creation; its limits were counted then, its hold stays). Its maker
   * cannot approve it (403, before the step-up: no code is spent); of two approvers racing, the one whose
   * conditional update lands first approves it and the other gets 409.
   */
  async function approve(request: ReviewRequest & { stepUp: () => Promise<void> }): Promise<PayoutRow> {
    const { merchant, userId, tradeNo } = request;
    const found = await findForMerchant(merchant.id, { tradeNo });
    assertWaiting(found, 'approved');
    if (found.createdByUserId === userId) {
      throw new AppError(403, 'A payout cannot be approved by the user who made it.', {
        code: ERROR_CODES.makerCannotApprove,
      });
    }
    await request.stepUp();
    return transactionWithRetry(db, async (tx) => {
      const at = now();
      const row = await repo.transition(tx, found.id, 'pending_approval', {
        status: 'pending',
        reviewedByUserId: userId,
        reviewedAt: at,
      });
      if (!row) throw changedMeanwhile('approved');
      const channel = await findChannelById(tx, row.channelId);
      if (!channel) throw new Error(`Payout ${row.tradeNo} has no channel.`);
      await submit(tx, channel, row);
      await request.record(tx, 'payout_approved', row);
      return row;
    });
  }

  /**
   * Rejects a payout waiting for approval (DESIGN 16): it becomes `rejected` (final) with the reason as its
   * failure_reason, its hold is released as a failed payout's is (fund flow "payment refund on behalf of
   * others"), and its callback is payout.failed. Its maker may reject it (withdraw it before it is sent).
   */
  async function reject(request: ReviewRequest & { reason: string }): Promise<PayoutRow> {
    const { merchant, userId, tradeNo, reason } = request;
    const found = await findForMerchant(merchant.id, { tradeNo });
    assertWaiting(found, 'rejected');
    return transactionWithRetry(db, async (tx) => {
      const at = now();
      const row = await repo.transition(tx, found.id, 'pending_approval', {
        status: 'rejected',
        finishedAt: at,
        failureReason: reason,
        reviewedByUserId: userId,
        reviewedAt: at,
      });
      if (!row) throw changedMeanwhile('rejected');
      await moveMoney(tx, row, 'rejected');
      await recordAttemptOutcome(
        tx,
        { kind: 'payout', id: row.id, merchantId: row.merchantId },
        { outcome: PAYOUT_OUTCOMES.rejected, at },
      );
      await callbacks.enqueue(tx, {
        merchantId: row.merchantId,
        type: 'payout.failed',
        refType: 'payout',
        refId: row.id,
        url: row.notifyUrl,
        data: payoutGatewayFields(row),
      });
      await request.record(tx, 'payout_rejected', row);
      return row;
    });
  }

  const assertWaiting = (row: PayoutRow, to: string) => {
    if (row.status !== 'pending_approval')
      throw conflict(`The payout is ${row.status}; it cannot be ${to}.`, ERROR_CODES.invalidTransition);
  };
  const changedMeanwhile = (to: string) =>
    conflict(
      `The payout was approved or rejected meanwhile; it cannot be ${to}.`,
      ERROR_CODES.invalidTransition,
    );

  /** The approval thresholds of a merchant row (DESIGN 16), in minor units; 0 is off. */
  async function approvalSettings(merchantId: number) {
    const row = await repo.approvalSettings(db, merchantId);
    return {
      consoleThresholdMinor: row?.consoleThresholdMinor ?? 0n,
      gatewayThresholdMinor: row?.gatewayThresholdMinor ?? 0n,
      updatedAt: row?.updatedAt ?? null,
    };
  }

  /** Saves both thresholds, with the change's record (the security log), in one transaction. */
  async function saveApprovalSettings(request: {
    merchant: MerchantRef;
    userId: number;
    consoleThresholdMinor: bigint;
    gatewayThresholdMinor: bigint;
    record: (tx: Tx, detail: Record<string, unknown>) => Promise<void>;
  }) {
    const { merchant, userId, consoleThresholdMinor, gatewayThresholdMinor } = request;
    return transactionWithRetry(db, async (tx) => {
      const before = await repo.approvalSettings(tx, merchant.id);
      const row = await repo.saveApprovalSettings(tx, {
        merchantId: merchant.id,
        consoleThresholdMinor,
        gatewayThresholdMinor,
        updatedByUserId: userId,
        updatedAt: now(),
      });
      const show = (minor: bigint | undefined) => fromMinor(minor ?? 0n, merchant.currency);
      await request.record(tx, {
        before: {
          payout_approval_threshold: show(before?.consoleThresholdMinor),
          gateway_payout_approval_threshold: show(before?.gatewayThresholdMinor),
        },
        after: {
          payout_approval_threshold: show(consoleThresholdMinor),
          gateway_payout_approval_threshold: show(gatewayThresholdMinor),
        },
      });
      return row;
    });
  }

  /** How many payouts wait for approval and their amount (the Dashboard). */
  const waitingForApproval = (merchantId: number) => repo.waitingForApproval(db, merchantId);

  async function findForMerchant(merchantId: number, ref: { tradeNo?: string; outTradeNo?: string }) {
    const row = await repo.findOfMerchant(db, merchantId, ref);
    if (!row) throw notFound('The payout was not found.');
    return row;
  }

  async function detail(merchantId: number, tradeNo: string): Promise<PayoutDetail> {
    const row = await findForMerchant(merchantId, { tradeNo });
    const events = await callbacks.eventsOf(db, merchantId, 'payout', row.id);
    const timeline: PayoutDetail['timeline'] = [{ step: 'created', at: row.createdAt.toISOString() }];
    if (row.processingAt) timeline.push({ step: 'processing', at: row.processingAt.toISOString() });
    if (row.finishedAt) {
      const finished = row.status === 'refund_received' ? 'success' : (row.status as 'success');
      timeline.push({ step: finished, at: row.finishedAt.toISOString() });
    }
    if (row.refundedAt) timeline.push({ step: 'refund_received', at: row.refundedAt.toISOString() });
    const notified = firstDelivery(events);
    if (notified) timeline.push({ step: 'notified', at: notified });
    const attempts = await attemptsOf(db, merchantId, 'payout', row.id);
    if (row.reviewedAt && row.status !== 'rejected')
      timeline.push({ step: 'approved', at: row.reviewedAt.toISOString() });
    timeline.sort((a, b) => a.at.localeCompare(b.at));
    const ids = [row.createdByUserId, row.reviewedByUserId].filter((id): id is number => id !== null);
    const names = await repo.userNames(db, ids);
    const refOf = (id: number | null) => (id === null ? null : { id, name: names.get(id) ?? '' });
    return {
      ...consoleView(row),
      timeline,
      callbacks: events,
      attempts,
      created_by: refOf(row.createdByUserId),
      reviewed_by: refOf(row.reviewedByUserId),
      reviewed_at: isoOrNull(row.reviewedAt),
    };
  }

  const { today, series } = repo.dashboard(db);

  const findAny = (tradeNo: string) => repo.findAnyByTradeNo(db, tradeNo);

  /** Payouts in flight since before `before` on these providers' channels (the housekeeping sweep). */
  const inFlight = async (providers: readonly string[], before: Date, limit = 1000) =>
    (await repo.inFlightOn(db, providers, before, limit)).map((row) => ({
      kind: 'payout' as const,
      number: row.trade_no,
      status: row.status,
      channelRef: row.channel_ref,
      provider: row.provider,
    }));

  return {
    create,
    approve,
    reject,
    approvalSettings,
    saveApprovalSettings,
    waitingForApproval,
    transition,
    failOver,
    findAny,
    inFlight,
    findForMerchant,
    detail,
    today,
    series,
    gatewayView,
    consoleView,
  };
}

/** The demo seed's history: payouts written as they ended. */
export const seedPayoutRow = repo.insert;

/** Housekeeping: idempotency keys of console payouts past their window. */
export const deleteExpiredPayoutKeys = repo.deleteExpiredKeys;

/**
 * A gateway creation under an Idempotency-Key (DESIGN 6: payouts, and refunds the same way). The key's
 * answer is stored in the object's own transaction (the `beforeHold` hook), so after a crash at any moment
 * the key has an answer exactly when the object committed. A stored answer is replayed (another body or
 * another kind of call: 422); while the first request runs, 409; a refusal is stored as the answer too.
 * `create` runs the creation's transaction with the hooks it is given.
 */
export function keyedCreate({ db, now }: { db: Db; now: () => Date }) {
  return async function keyed<Row>(
    scope: string,
    merchantId: number,
    idempotency: IdempotencyInput<Row>,
    create: (hooks: TransactionHooks<Row>) => Promise<Row>,
  ): Promise<Created<Row> | StoredAnswer> {
    const { key, requestHash } = idempotency;
    const replayOf = (stored: NonNullable<Awaited<ReturnType<typeof repo.findKey>>>): StoredAnswer => {
      if (stored.scope !== scope || stored.requestHash !== requestHash) {
        throw ValidationError.field(
          'idempotency_key',
          'This Idempotency-Key was used with a different request.',
          ERROR_CODES.idempotencyKeyReused,
        );
      }
      return { replayed: true, status: stored.responseStatus ?? 200, body: stored.responseBody ?? '{}' };
    };
    const stored = await repo.findKey(db, merchantId, key, now());
    if (stored) return replayOf(stored);
    const keyRow = (status: number, body: unknown) => ({
      merchantId,
      key,
      scope,
      requestHash,
      responseStatus: status,
      responseBody: JSON.stringify(body),
      at: now(),
    });
    try {
      const row = await create({
        first: async (tx) => {
          if (!(await repo.lockKey(tx, merchantId, key))) {
            throw new AppError(409, 'The first request with this Idempotency-Key is still being processed.', {
              code: ERROR_CODES.idempotencyKeyInFlight,
            });
          }
          // It may have committed between the look above and the lock.
          const committed = await repo.findKey(tx, merchantId, key, now());
          if (committed) throw new KeyAnswered(replayOf(committed));
        },
        beforeHold: async (tx, row) => {
          const answer = idempotency.answerOf(row);
          await repo.storeKey(tx, keyRow(answer.status, answer.body));
        },
      });
      return { replayed: false, row };
    } catch (error) {
      if (error instanceof KeyAnswered) return error.answer;
      const inFlight = error instanceof AppError && error.code === ERROR_CODES.idempotencyKeyInFlight;
      if (error instanceof AppError && error.status < 500 && !inFlight) {
        // Nothing of the object committed, and the key's lock went with its transaction. The refusal
        // becomes the key's answer under the lock again, unless a request with the same key committed
        // its answer in between: then that answer is this call's too, as it is every replay's (a client
        // told 422 while its key replays 201 might send the call again under a new key).
        const first = await transactionWithRetry(db, async (tx) => {
          await repo.waitForKey(tx, merchantId, key);
          const committed = await repo.findKey(tx, merchantId, key, now());
          if (committed) return replayOf(committed);
          await repo.storeKey(tx, keyRow(error.status, idempotency.refusalOf(error)));
          return undefined;
        });
        if (first) return first;
      }
      throw error;
    }
  };
}
