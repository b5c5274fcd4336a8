import {
  type FundFlowType,
  HOLD_TYPES,
  type HoldType,
  POSTED_TYPE_SIGN,
  type PostedType,
  RELEASE_TYPE_OF_HOLD,
} from '@paydesk/shared/funds/funds.schemas.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { HoldClosedError, InsufficientFundsError, LedgerUsageError } from './ledger.errors.ts';
import {
  type BalanceRow,
  type FundFlowRow,
  type HoldRow,
  ledgerRepository as repo,
} from './ledger.repository.ts';

// The one place where money moves (DESIGN section 3). Every operation runs in the caller's transaction,
// beside the business change that causes it, and is idempotent by a key derived from that cause
// ("payout:<id>:deduct"): a repeat answers the first result and writes nothing. Deductions are conditional
// updates (... WHERE available >= x), so no interleaving can take available or locked below zero.

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

export type PostResult = { entry: FundFlowRow; replayed: boolean };
export type HoldResult = { hold: HoldRow; entry: FundFlowRow; replayed: boolean };
export type CaptureResult = { hold: HoldRow; replayed: boolean };
export type ReleaseResult = { hold: HoldRow; entry: FundFlowRow; replayed: boolean };

function assertKey(key: string) {
  if (!key || key.length > 200)
    throw new LedgerUsageError('An idempotency key of 1 to 200 characters is required.');
}

async function assertInOrder(tx: Tx, merchantId: number, at: Date | undefined) {
  if (!at) return;
  const latest = await repo.latestEntryTime(tx, merchantId);
  if (latest && at < latest) throw new LedgerUsageError('A back-dated entry cannot precede the latest one.');
}

function sameMerchant<T extends { merchantId: number }>(row: T, merchantId: number, key: string): T {
  if (row.merchantId !== merchantId) {
    throw new LedgerUsageError(`The idempotency key ${key} was already used for another merchant.`);
  }
  return row;
}

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger() {
  /** Credits or debits available with one entry (settlements, top-ups, transfers, refunds received). */
  async function post(tx: Tx, input: PostInput): Promise<PostResult> {
    assertKey(input.idempotencyKey);
    const sign = POSTED_TYPE_SIGN[input.type];
    if (!sign) throw new LedgerUsageError(`${input.type} is not posted directly (it goes through a hold).`);
    if (input.amountMinor === 0n || (input.amountMinor > 0n ? 1 : -1) !== sign) {
      throw new LedgerUsageError(`A ${input.type} amount must be ${sign > 0 ? 'positive' : 'negative'}.`);
    }
    const { merchantId, amountMinor, idempotencyKey: key } = input;
    await assertInOrder(tx, merchantId, input.at);

    const draft = {
      merchantId,
      type: input.type,
      amountMinor,
      refType: input.refType,
      refId: input.refId,
      refNo: input.refNo ?? null,
      note: input.note ?? null,
      idempotencyKey: key,
    };
    let result = await repo.postEntry(tx, draft, input.at);
    if (!result.applied) {
      const existing = await repo.findEntryByKey(tx, key);
      if (existing) return { entry: sameMerchant(existing, merchantId, key), replayed: true };
      if (amountMinor < 0n) throw new InsufficientFundsError();
      // A merchant's first credit: create the zero row (concurrent firsts meet on its primary key).
      await repo.ensureBalanceRow(tx, merchantId);
      result = await repo.postEntry(tx, draft, input.at);
      if (!result.applied) {
        const raced = await repo.findEntryByKey(tx, key);
        if (raced) return { entry: sameMerchant(raced, merchantId, key), replayed: true };
        throw new LedgerUsageError(`Could not credit merchant ${merchantId}.`);
      }
    }
    if (result.written) return { entry: result.written, replayed: false };
    // The same key committed by a concurrent caller between our check and our insert (it held the balance
    // row before us): undo our change and answer theirs.
    await repo.undoPost(tx, merchantId, amountMinor);
    const existing = await repo.findEntryByKey(tx, key);
    if (!existing) throw new LedgerUsageError(`Entry ${key} vanished.`);
    return { entry: sameMerchant(existing, merchantId, key), replayed: true };
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

    const replay = async (): Promise<HoldResult | undefined> => {
      const existing = await repo.findHoldByKey(tx, key);
      if (!existing) return undefined;
      const entry = await repo.findEntryByKey(tx, key);
      if (!entry) throw new LedgerUsageError(`Hold ${key} has no entry.`);
      return { hold: sameMerchant(existing, merchantId, key), entry, replayed: true };
    };

    const result = await repo.holdWithEntry(
      tx,
      {
        merchantId,
        amountMinor,
        type: input.type,
        refType: input.refType,
        refId: input.refId,
        refNo: input.refNo ?? null,
        note: input.note ?? null,
        idempotencyKey: key,
      },
      input.at,
    );
    if (!result.applied) {
      const replayed = await replay();
      if (replayed) return replayed;
      throw new InsufficientFundsError();
    }
    if (result.written) return { ...result.written, replayed: false };
    await repo.undoHold(tx, merchantId, amountMinor);
    const replayed = await replay();
    if (!replayed) throw new LedgerUsageError(`Hold ${key} vanished.`);
    return replayed;
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

  /** The held money leaves for good (the payout succeeded, the withdrawal was paid): no entry. */
  async function capture(tx: Tx, input: CloseHoldInput): Promise<CaptureResult> {
    const result = await closeHold(tx, input, 'captured');
    if (result.replayed) return result;
    const changed = await repo.closeLocked(tx, input.merchantId, result.hold.amountMinor, false);
    if (changed === undefined)
      throw new LedgerUsageError(`Locked funds of merchant ${input.merchantId} are short.`);
    return result;
  }

  /** The held money goes back to available, with the entry type that matches the hold. */
  async function release(tx: Tx, input: CloseHoldInput): Promise<ReleaseResult> {
    const result = await closeHold(tx, input, 'released');
    const { hold } = result;
    if (result.replayed) {
      const entry = await repo.findEntryByKey(tx, input.idempotencyKey);
      if (!entry) throw new LedgerUsageError(`Release ${input.idempotencyKey} has no entry.`);
      return { hold, entry, replayed: true };
    }
    const availableAfter = await repo.closeLocked(tx, input.merchantId, hold.amountMinor, true);
    if (availableAfter === undefined) {
      throw new LedgerUsageError(`Locked funds of merchant ${input.merchantId} are short.`);
    }
    const entry = await repo.insertEntry(tx, {
      merchantId: input.merchantId,
      type: RELEASE_TYPE_OF_HOLD[hold.type as HoldType],
      amountMinor: hold.amountMinor,
      availableAfterMinor: availableAfter,
      refType: hold.refType,
      refId: hold.refId,
      refNo: hold.refNo,
      holdId: hold.id,
      note: input.note ?? hold.note,
      idempotencyKey: input.idempotencyKey,
    });
    if (!entry)
      throw new LedgerUsageError(`The key ${input.idempotencyKey} was already used by another entry.`);
    return { hold, entry, replayed: false };
  }

  /** available and locked, zero for a merchant that never had money. */
  async function balanceOf(
    db: DbOrTx,
    merchantId: number,
  ): Promise<Pick<BalanceRow, 'availableMinor' | 'lockedMinor'>> {
    const row = await repo.findBalance(db, merchantId);
    return { availableMinor: row?.availableMinor ?? 0n, lockedMinor: row?.lockedMinor ?? 0n };
  }

  return { post, hold, capture, release, balanceOf, findHold: repo.findHold };
}

export type { FundFlowRow, HoldRow, FundFlowType };
