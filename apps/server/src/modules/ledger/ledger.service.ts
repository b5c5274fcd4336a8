import {
  CAPTURE_TYPE_OF_HOLD,
  type FundFlowType,
  HOLD_TYPES,
  type HoldType,
  type JournalEntryType,
  POSTED_TYPE_SIGN,
  type PostedType,
  RELEASE_TYPE_OF_HOLD,
} from '@paydesk/shared/funds/funds.schemas.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { HoldClosedError, InsufficientFundsError, LedgerUsageError } from './ledger.errors.ts';
import {
  type EntryDraft,
  type FundFlowRow,
  HOLD_IN_STATEMENT_PARAMS,
  HOLD_MANY_COLUMNS,
  HOLD_MANY_IN_STATEMENT_PARAMS,
  holdInStatementParams,
  holdInStatementText,
  holdManyInStatementText,
  holdManyRow,
  type HoldRow,
  ledgerRepository as repo,
  type PlatformLeg,
  type WrittenEntry,
} from './ledger.repository.ts';
import { fundFlowsRepository } from './fund-flows.repository.ts';

// The one place where money moves (DESIGN section 3). Every operation runs in the caller's transaction,
// beside the business change that causes it, and is idempotent by a key derived from that cause
// ("payout:<id>:deduct"): a repeat answers the first result and writes nothing. Each operation writes one
// double-entry journal entry whose postings sum to zero (DESIGN section 3). Deductions are conditional
// updates (... WHERE balance >= x), so no interleaving can take available or locked below zero.

type Reference = {
  /** What caused it: "payout", "withdrawal", "operator_action", ... */
  refType: string;
  refId: string;
  /** The number a merchant searches the fund flow by. */
  refNo?: string | null;
  note?: string | null;
};

export type PostInput = Reference & {
  merchantId: number;
  type: PostedType;
  /** Signed minor units: positive for money in, negative for money out (the type decides which). */
  amountMinor: bigint;
  /** The channel whose clearing account is the counterpart (settlements and refunds received). */
  channel?: string;
  /** A settlement's fees: the channel's clearing account gives amount + fee, fee revenue takes the fee. */
  feeMinor?: bigint;
  idempotencyKey: string;
  /** Back-dated history (imports, the demo): never before the merchant's latest entry. */
  at?: Date;
};

export type HoldInput = Reference & {
  merchantId: number;
  type: HoldType;
  /** Positive minor units moved from available to locked. */
  amountMinor: bigint;
  idempotencyKey: string;
  at?: Date;
};

export type CloseHoldInput = {
  merchantId: number;
  holdId: number;
  /** The key of this capture or release ("payout:<id>:paid"); repeating it replays. */
  idempotencyKey: string;
  note?: string | null;
};

export type CaptureInput = CloseHoldInput & {
  /** The payout's or refund's channel: its clearing account receives the amount. */
  channel?: string;
  /** The part of the hold that is our fee (fee revenue); the rest leaves to the channel or the wallet. */
  feeMinor?: bigint;
};

export type PostResult = { entry: FundFlowRow; replayed: boolean };
export type HoldResult = { hold: HoldRow; entry: FundFlowRow; replayed: boolean };
export type CaptureResult = { hold: HoldRow; replayed: boolean };
export type ReleaseResult = { hold: HoldRow; entry: FundFlowRow; replayed: boolean };

function assertKey(key: string) {
  if (!key || key.length > 200)
    throw new LedgerUsageError('An idempotency key of 1 to 200 characters is required.');
}

function assertChannel(channel: string | undefined, what: string): string {
  if (!channel || !/^[A-Za-z0-9_.-]{1,64}$/.test(channel))
    throw new LedgerUsageError(`${what} needs the channel (1 to 64 letters, digits, _ . -).`);
  return channel;
}

async function assertInOrder(tx: Tx, merchantId: number, at: Date | undefined) {
  if (!at) return;
  const latest = await repo.latestEntryTime(tx, merchantId);
  if (latest && at < latest) throw new LedgerUsageError('A back-dated entry cannot precede the latest one.');
}

function sameMerchant<T extends { merchantId: number | null }>(row: T, merchantId: number, key: string): T {
  if (row.merchantId !== merchantId) {
    throw new LedgerUsageError(`The idempotency key ${key} was already used for another merchant.`);
  }
  return row;
}

/** The counterpart of each directly posted type (DESIGN section 3's posting table). */
function counterpartsOf(input: PostInput): PlatformLeg[] {
  const { type, amountMinor } = input;
  switch (type) {
    case 'transfer_in':
    case 'transfer_out':
      return [{ kind: 'operator_adjustments', amountMinor: -amountMinor }];
    case 'recharge':
      return [{ kind: 'usdt_deposits', amountMinor: -amountMinor }];
    case 'payout_refund':
      return [
        {
          kind: 'channel_clearing',
          channel: assertChannel(input.channel, 'A refund received'),
          amountMinor: -amountMinor,
        },
      ];
    case 'collection_settlement': {
      const fee = input.feeMinor ?? 0n;
      if (fee < 0n) throw new LedgerUsageError('A settlement fee cannot be negative.');
      const channel = assertChannel(input.channel, 'A settlement');
      return [
        { kind: 'channel_clearing', channel, amountMinor: -(amountMinor + fee) },
        ...(fee > 0n ? [{ kind: 'fee_revenue' as const, amountMinor: fee }] : []),
      ];
    }
  }
}

/** Zero-sum, or it is a bug in the ledger, caught before anything is written. */
function assertBalanced(draft: EntryDraft) {
  const total = [...draft.merchantLegs, ...draft.platformLegs].reduce(
    (sum, leg) => sum + leg.amountMinor,
    0n,
  );
  if (total !== 0n) throw new LedgerUsageError(`Entry ${draft.idempotencyKey} does not balance (${total}).`);
  if ([...draft.merchantLegs, ...draft.platformLegs].some((leg) => leg.amountMinor === 0n))
    throw new LedgerUsageError(`Entry ${draft.idempotencyKey} has a zero posting.`);
}

export type Ledger = ReturnType<typeof createLedger>;
/** A hold as CTEs of another module's one statement (Ledger.holdInStatement). */
export type HoldInStatement = ReturnType<Ledger['holdInStatement']>;
/** The holds of a batch as CTEs of another module's one statement (Ledger.holdManyInStatement). */
export type HoldManyInStatement = ReturnType<Ledger['holdManyInStatement']>;

export function createLedger() {
  /**
   * Writes one balanced entry; `replay` answers the committed result of the same key. On a lost race for
   * the key the legs are undone and the winner's result is answered.
   */
  async function write<T>(
    tx: Tx,
    draft: EntryDraft,
    build: (written: WrittenEntry, availableAfterMinor: bigint | null) => T,
    replay: () => Promise<T | undefined>,
    onShort: () => Promise<'retry' | never>,
  ): Promise<{ result: T; replayed: boolean }> {
    assertBalanced(draft);
    if (draft.at) await fundFlowsRepository.keepDaysOpen(tx);
    let applied = await repo.writeEntry(tx, draft);
    if (!applied.applied) {
      const first = await replay();
      if (first !== undefined) return { result: first, replayed: true };
      await onShort();
      applied = await repo.writeEntry(tx, draft);
      if (!applied.applied) {
        const raced = await replay();
        if (raced !== undefined) return { result: raced, replayed: true };
        throw new LedgerUsageError(`Could not write entry ${draft.idempotencyKey}.`);
      }
    }
    if (applied.written) {
      if (draft.at && applied.written.flowId !== null)
        await fundFlowsRepository.addToClosed(tx, applied.written.flowId);
      return { result: build(applied.written, applied.availableAfterMinor), replayed: false };
    }
    // The same key committed by a concurrent caller between our check and our insert (it held the account
    // row before us): undo our legs and answer theirs.
    await repo.undoLegs(tx, draft);
    const existing = await replay();
    if (existing === undefined) throw new LedgerUsageError(`Entry ${draft.idempotencyKey} vanished.`);
    return { result: existing, replayed: true };
  }

  const flowOf = (
    draft: EntryDraft,
    written: WrittenEntry,
    availableAfterMinor: bigint | null,
  ): FundFlowRow => {
    const available = draft.merchantLegs.find((l) => l.account === 'available');
    if (!available || written.flowId === null || availableAfterMinor === null)
      throw new LedgerUsageError(`Entry ${draft.idempotencyKey} has no fund flow.`);
    return {
      id: written.flowId,
      merchantId: draft.merchantId,
      type: draft.flowType!,
      amountMinor: available.amountMinor,
      availableAfterMinor,
      refType: draft.refType,
      refId: draft.refId,
      refNo: draft.refNo,
      holdId: written.holdId ?? draft.holdId ?? null,
      entryId: written.entryId,
      note: draft.note,
      createdAt: written.createdAt,
    };
  };

  /** A close's key already names another entry: a caller's bug, never a replay. */
  const refuseKeyUsedElsewhere = async (tx: Tx, key: string): Promise<undefined> => {
    if (await repo.findEntryByKey(tx, key))
      throw new LedgerUsageError(`The key ${key} was already used by another entry.`);
    return undefined;
  };

  const flowReplay = (tx: Tx, merchantId: number, key: string) => async () => {
    const flow = await repo.findFlowByKey(tx, key);
    if (flow) return sameMerchant(flow, merchantId, key);
    const entry = await repo.findEntryByKey(tx, key);
    if (entry) throw new LedgerUsageError(`The idempotency key ${key} was already used by another entry.`);
    return undefined;
  };

  /** Credits or debits available against its counterpart (settlements, top-ups, transfers, refunds received). */
  async function post(tx: Tx, input: PostInput): Promise<PostResult> {
    assertKey(input.idempotencyKey);
    const sign = POSTED_TYPE_SIGN[input.type];
    if (!sign) throw new LedgerUsageError(`${input.type} is not posted directly (it goes through a hold).`);
    if (input.amountMinor === 0n || (input.amountMinor > 0n ? 1 : -1) !== sign) {
      throw new LedgerUsageError(`A ${input.type} amount must be ${sign > 0 ? 'positive' : 'negative'}.`);
    }
    const { merchantId, amountMinor, idempotencyKey: key } = input;
    await assertInOrder(tx, merchantId, input.at);
    const draft: EntryDraft = {
      merchantId,
      type: input.type,
      refType: input.refType,
      refId: input.refId,
      refNo: input.refNo ?? null,
      note: input.note ?? null,
      idempotencyKey: key,
      merchantLegs: [{ account: 'available', amountMinor }],
      platformLegs: counterpartsOf(input),
      flowType: input.type,
      at: input.at,
    };
    const { result, replayed } = await write(
      tx,
      draft,
      (written, after) => flowOf(draft, written, after),
      flowReplay(tx, merchantId, key),
      async () => {
        if (amountMinor < 0n) throw new InsufficientFundsError();
        // A merchant's first credit: create its accounts (concurrent firsts meet on their unique code).
        await repo.ensureMerchantAccounts(tx, merchantId);
        return 'retry';
      },
    );
    return { entry: result, replayed };
  }

  /** Moves money from available to locked (payout in flight, withdrawal under review, operator freeze). */
  async function hold(tx: Tx, input: HoldInput): Promise<HoldResult> {
    assertKey(input.idempotencyKey);
    if (!(HOLD_TYPES as readonly string[]).includes(input.type)) {
      throw new LedgerUsageError(`${input.type} is not a hold type.`);
    }
    if (input.amountMinor <= 0n) throw new LedgerUsageError('A hold amount must be positive.');
    const { merchantId, amountMinor, idempotencyKey: key } = input;
    await assertInOrder(tx, merchantId, input.at);
    const draft: EntryDraft = {
      merchantId,
      type: input.type,
      refType: input.refType,
      refId: input.refId,
      refNo: input.refNo ?? null,
      note: input.note ?? null,
      idempotencyKey: key,
      merchantLegs: [
        { account: 'available', amountMinor: -amountMinor },
        { account: 'locked', amountMinor },
      ],
      platformLegs: [],
      flowType: input.type,
      openHold: input.type,
      at: input.at,
    };
    const { result, replayed } = await write(
      tx,
      draft,
      (written, after): Omit<HoldResult, 'replayed'> => ({
        hold: {
          id: written.holdId!,
          merchantId,
          amountMinor,
          type: input.type,
          status: 'open',
          refType: draft.refType,
          refId: draft.refId,
          refNo: draft.refNo,
          note: draft.note,
          idempotencyKey: key,
          closeKey: null,
          createdAt: written.createdAt,
          closedAt: null,
        },
        entry: flowOf(draft, written, after),
      }),
      async () => {
        const existing = await repo.findHoldByKey(tx, key);
        if (!existing) {
          if (await repo.findEntryByKey(tx, key))
            throw new LedgerUsageError(`The idempotency key ${key} was already used by another entry.`);
          return undefined;
        }
        const entry = await repo.findFlowByKey(tx, key);
        if (!entry) throw new LedgerUsageError(`Hold ${key} has no entry.`);
        return { hold: sameMerchant(existing, merchantId, key), entry };
      },
      async () => {
        throw new InsufficientFundsError();
      },
    );
    return { ...result, replayed };
  }

  /**
   * hold() as CTEs of the caller's one statement, for a new cause whose key cannot exist yet (a payout
   * written in the same statement): `text(from, gate, cause)` and `params` as holdInStatementText
   * documents. The same journal entry, hold and fund flow as hold() writes, in the caller's commit.
   */
  function holdInStatement(input: {
    merchantId: number;
    type: HoldType;
    refType: string;
    amountMinor: bigint;
  }) {
    if (!(HOLD_TYPES as readonly string[]).includes(input.type)) {
      throw new LedgerUsageError(`${input.type} is not a hold type.`);
    }
    if (input.amountMinor <= 0n) throw new LedgerUsageError('A hold amount must be positive.');
    return {
      text: holdInStatementText,
      params: holdInStatementParams(input),
      paramCount: HOLD_IN_STATEMENT_PARAMS,
    };
  }

  /**
   * holdInStatement for a batch of causes in one statement, each its own hold of this type: `text(from,
   * gate, cause)` as holdManyInStatementText documents, `columns` each gate row carries and `rowOf` their
   * values for one hold. The same entries, holds and fund flows as one holdInStatement each.
   */
  function holdManyInStatement(input: { type: HoldType; refType: string }) {
    if (!(HOLD_TYPES as readonly string[]).includes(input.type)) {
      throw new LedgerUsageError(`${input.type} is not a hold type.`);
    }
    return {
      text: holdManyInStatementText,
      params: [input.type, input.refType],
      paramCount: HOLD_MANY_IN_STATEMENT_PARAMS,
      columns: HOLD_MANY_COLUMNS,
      rowOf: (merchantId: number, amountMinor: bigint) => {
        if (amountMinor <= 0n) throw new LedgerUsageError('A hold amount must be positive.');
        return holdManyRow(merchantId, amountMinor);
      },
    };
  }

  /**
   * Closes an open hold as captured or released. Repeating the close that closed it (same key, same verb)
   * replays; anything else after it closed is refused (409).
   */
  async function closeHold(
    tx: Tx,
    input: CloseHoldInput,
    status: 'captured' | 'released',
  ): Promise<{ hold: HoldRow; replayed: boolean }> {
    assertKey(input.idempotencyKey);
    const closed = await repo.closeHold(tx, input.merchantId, input.holdId, status, input.idempotencyKey);
    if (closed) return { hold: closed, replayed: false };
    const existing = await repo.findHold(tx, input.merchantId, input.holdId);
    if (!existing) throw notFound('The hold was not found.');
    if (existing.closeKey === input.idempotencyKey && existing.status === status) {
      return { hold: existing, replayed: true };
    }
    throw new HoldClosedError(existing.status);
  }

  /**
   * The held money leaves for good: a payout that succeeded goes to its channel's clearing account, a paid
   * withdrawal to withdrawals payable, and the fee part to fee revenue. It writes no fund flow: the
   * merchant saw the money leave when the hold opened.
   */
  async function capture(tx: Tx, input: CaptureInput): Promise<CaptureResult> {
    const found = await repo.findHold(tx, input.merchantId, input.holdId);
    const holdType = found?.type as HoldType | undefined;
    const captureType =
      holdType && (CAPTURE_TYPE_OF_HOLD as Partial<Record<HoldType, JournalEntryType>>)[holdType];
    if (holdType && !captureType) throw new LedgerUsageError(`A ${holdType} hold is only ever released.`);
    // A payout and a refund leave through their channel: its clearing account receives the amount.
    const throughChannel = holdType === 'payout_deduction' || holdType === 'refund';
    const channel = throughChannel ? assertChannel(input.channel, `A ${holdType} capture`) : undefined;
    const fee = input.feeMinor ?? 0n;
    if (found && (fee < 0n || fee > found.amountMinor))
      throw new LedgerUsageError('The fee must be within the hold.');
    const result = await closeHold(tx, input, 'captured');
    if (result.replayed) return result;
    const { hold } = result;
    const away = hold.amountMinor - fee;
    const platformLegs: PlatformLeg[] = [];
    if (away > 0n) {
      platformLegs.push(
        throughChannel
          ? { kind: 'channel_clearing', channel, amountMinor: away }
          : { kind: 'withdrawals_payable', amountMinor: away },
      );
    }
    if (fee > 0n) platformLegs.push({ kind: 'fee_revenue', amountMinor: fee });
    const draft: EntryDraft = {
      merchantId: input.merchantId,
      type: captureType!,
      refType: hold.refType,
      refId: hold.refId,
      refNo: hold.refNo,
      note: input.note ?? hold.note,
      idempotencyKey: input.idempotencyKey,
      merchantLegs: [{ account: 'locked', amountMinor: -hold.amountMinor }],
      platformLegs,
    };
    await write(
      tx,
      draft,
      () => true,
      () => refuseKeyUsedElsewhere(tx, input.idempotencyKey),
      async () => {
        throw new LedgerUsageError(`Locked funds of merchant ${input.merchantId} are short.`);
      },
    );
    return result;
  }

  /** The held money goes back to available, with the entry type that matches the hold. */
  async function release(tx: Tx, input: CloseHoldInput): Promise<ReleaseResult> {
    const result = await closeHold(tx, input, 'released');
    const { hold } = result;
    if (result.replayed) {
      const entry = await repo.findFlowByKey(tx, input.idempotencyKey);
      if (!entry) throw new LedgerUsageError(`Release ${input.idempotencyKey} has no entry.`);
      return { hold, entry, replayed: true };
    }
    const type = RELEASE_TYPE_OF_HOLD[hold.type as HoldType];
    const draft: EntryDraft = {
      merchantId: input.merchantId,
      type,
      refType: hold.refType,
      refId: hold.refId,
      refNo: hold.refNo,
      note: input.note ?? hold.note,
      idempotencyKey: input.idempotencyKey,
      merchantLegs: [
        { account: 'available', amountMinor: hold.amountMinor },
        { account: 'locked', amountMinor: -hold.amountMinor },
      ],
      platformLegs: [],
      flowType: type,
      holdId: hold.id,
    };
    const { result: entry } = await write(
      tx,
      draft,
      (written, after) => flowOf(draft, written, after),
      () => refuseKeyUsedElsewhere(tx, input.idempotencyKey),
      async () => {
        throw new LedgerUsageError(`Merchant ${input.merchantId} has no ledger accounts.`);
      },
    );
    return { hold, entry, replayed: false };
  }

  /** available and locked, zero for a merchant that never had money. */
  async function balanceOf(
    db: DbOrTx,
    merchantId: number,
  ): Promise<{ availableMinor: bigint; lockedMinor: bigint }> {
    return repo.findBalance(db, merchantId);
  }

  /** The hold a cause's key opened ("payout:<id>:deduct"), if it is this merchant's. */
  async function findHoldByKey(db: DbOrTx, merchantId: number, key: string) {
    const hold = await repo.findHoldByKey(db, key);
    return hold?.merchantId === merchantId ? hold : undefined;
  }

  return {
    post,
    hold,
    holdInStatement,
    holdManyInStatement,
    capture,
    release,
    balanceOf,
    findHold: repo.findHold,
    findHoldByKey,
    eraseTestHistory: repo.eraseTestHistory,
  };
}

export type { FundFlowRow, HoldRow, FundFlowType };
