import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import { dayRange, localDate } from '@paydesk/shared/time-zone.ts';
import { ADDRESS_ISSUE_MESSAGES, walletAddressIssue } from '@paydesk/shared/withdrawals/wallet-address.ts';
import { usdtToLocalMinor } from '@paydesk/shared/withdrawals/withdrawal-amount.ts';
import {
  canWithdrawalTransition,
  TX_HASH_PATTERNS,
  WALLET_NETWORKS,
  type WalletNetwork,
  type Withdrawal,
  type WithdrawalOptions,
  type WithdrawalStatus,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../plugins/auth-context.ts';
import { newTradeNo } from '../collections/index.ts';
import { type Ledger, transactionWithRetry } from '../ledger/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { type WithdrawalRow, withdrawalsRepository as repo } from './withdrawals.repository.ts';
import type { Viewer } from '../../plugins/auth-context.ts';
import type { LimitsService } from '../limits/index.ts';
import { isoOrNull } from '../../lib/timezone.ts';

// Withdrawals (DESIGN sections 3 and 4). The merchant asks for an amount of USDT to a wallet; the fee is
// USDT too (zero for the day's free ones). Both are converted to the merchant's currency at the configured
// rate, frozen on the request and rounded up, and amount + fee is held at once (not enough available: 422,
// nothing written). An operator approves, then pays with the chain's transaction hash (the hold goes to
// withdrawals payable and fee revenue), or rejects with a reason from either state (the hold comes back).
// Each step commits with its ledger entry and its security event; anything else answers 409.

export type MerchantRef = { id: number; no: string; currency: Currency; timezone: string };
export type { Viewer };
export type Decision = {
  to: Exclude<WithdrawalStatus, 'pending_review'>;
  /**
   * The state the operator decides on. A rejection says which (under review by default; an approved one
   * only when asked for), so of an approval and a rejection sent at once exactly one applies, whatever
   * order they reach the database in.
   */
  from?: 'pending_review' | 'approved';
  operator: string;
  reason: string;
  txHash?: string;
};

type Deps = {
  db: Db;
  ledger: Pick<Ledger, 'hold' | 'capture' | 'release' | 'balanceOf' | 'findHoldByKey'>;
  settings: Config['withdrawals'];
  now: () => Date;
  /**
   * The merchant's limits and wallet block list (DESIGN 14), enforced in the request's transaction and
   * checked (read only) by the form's checks before the step-up.
   */
  limits: Pick<LimitsService, 'enforce' | 'check'>;
};

const USDT: Currency = 'USDT';
// A billion USDT: far beyond any withdrawal, and its value in any currency still fits a bigint column.
const MAX_AMOUNT_MINOR = 1_000_000_000_000_000n;
const holdKey = (id: number) => `withdrawal:${id}:request`;

/** A withdrawal as the console shows it. */
export function presentWithdrawal(row: WithdrawalRow): Withdrawal {
  const local = row.localCurrency as Currency;
  return {
    withdrawal_no: row.withdrawalNo,
    status: row.status as WithdrawalStatus,
    currency: 'USDT',
    network: row.network as WalletNetwork,
    address: row.address,
    amount: fromMinor(row.amountUsdtMinor, USDT),
    fee: fromMinor(row.feeUsdtMinor, USDT),
    is_free: row.isFree,
    rate: row.rate,
    local_currency: local,
    local_amount: fromMinor(row.amountLocalMinor, local),
    local_fee: fromMinor(row.feeLocalMinor, local),
    local_total: fromMinor(row.amountLocalMinor + row.feeLocalMinor, local),
    tx_hash: row.txHash,
    reject_reason: row.rejectReason,
    created_at: row.createdAt.toISOString(),
    approved_at: isoOrNull(row.approvedAt),
    paid_at: isoOrNull(row.paidAt),
    rejected_at: isoOrNull(row.rejectedAt),
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;

export function createWithdrawalsService({ db, ledger, settings, now, limits }: Deps) {
  const feeMinor = toMinor(settings.feeUsdt, USDT);
  const minMinor = toMinor(settings.minUsdt, USDT);
  const present = presentWithdrawal;

  function rateOf(currency: Currency): string {
    const rate = settings.usdtRates[currency];
    if (!rate) throw new AppError(422, `Withdrawals are not available for ${currency} merchants yet.`);
    return rate;
  }

  /** Today in the merchant's time zone, as instants. */
  function today(merchant: MerchantRef) {
    const { start, end } = dayRange(localDate(now(), merchant.timezone), merchant.timezone);
    return { start, end };
  }

  async function freeLeftToday(merchant: MerchantRef, dbOrTx: Db | Tx = db): Promise<number> {
    if (settings.freePerDay === 0) return 0;
    const { start, end } = today(merchant);
    const used = await repo.countFree(dbOrTx, merchant.id, start, end);
    return Math.max(0, settings.freePerDay - used);
  }

  async function options(merchant: MerchantRef): Promise<WithdrawalOptions> {
    const { availableMinor } = await ledger.balanceOf(db, merchant.id);
    return {
      currencies: ['USDT'],
      networks: [...WALLET_NETWORKS],
      fee: fromMinor(feeMinor, USDT),
      free_per_day: settings.freePerDay,
      free_left_today: await freeLeftToday(merchant),
      min_amount: fromMinor(minMinor, USDT),
      rate: rateOf(merchant.currency),
      local_currency: merchant.currency,
      available: fromMinor(availableMinor, merchant.currency),
    };
  }

  type RequestInput = { amount: string; network: WalletNetwork; address: string };

  /**
   * The form's checks: the address (a wrong checksum names the field), the amount, and the merchant's
   * limits and wallet block list (read only: request() enforces them in its transaction). The route runs
   * them before the step-up so a typo or a refusal does not spend the user's Google code; the balance is
   * the hold's call (insufficient: 422 with nothing written).
   */
  async function check(merchant: MerchantRef, input: RequestInput) {
    const form = formOf(merchant, input);
    await limits.check({
      merchantId: merchant.id,
      kind: 'withdrawal',
      amountMinor: form.amountMinor,
      walletAddress: input.address,
    });
    return form;
  }

  /** The address and the amount, as the form gave them: its refusals, or the amounts. */
  function formOf(merchant: MerchantRef, input: RequestInput) {
    const issue = walletAddressIssue(input.network, input.address);
    if (issue) {
      throw ValidationError.field(
        'address',
        issue === 'required'
          ? 'The wallet address field is required.'
          : ADDRESS_ISSUE_MESSAGES[issue][input.network],
        ERROR_CODES.invalidWalletAddress,
      );
    }
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(input.amount, USDT);
    } catch (error) {
      throw ValidationError.field('amount', (error as Error).message);
    }
    if (amountMinor <= 0n || amountMinor < minMinor) {
      throw ValidationError.field(
        'amount',
        `The amount must be at least ${minMinor > 0n ? fromMinor(minMinor, USDT) : '0.000001'} USDT.`,
        ERROR_CODES.amountOutOfRange,
      );
    }
    if (amountMinor > MAX_AMOUNT_MINOR) {
      throw ValidationError.field(
        'amount',
        `The amount may not be greater than ${fromMinor(MAX_AMOUNT_MINOR, USDT)} USDT.`,
        ERROR_CODES.amountOutOfRange,
      );
    }
    const rate = rateOf(merchant.currency);
    const amountLocalMinor = usdtToLocalMinor(amountMinor, rate, merchant.currency);
    return { amountMinor, rate, amountLocalMinor };
  }

  /** Requests a withdrawal and holds amount + fee in the merchant's currency, in one transaction. */
  async function request(
    merchant: MerchantRef,
    input: RequestInput,
    actor: { userId: number; client: ClientInfo | null },
  ): Promise<WithdrawalRow> {
    const { amountMinor, rate, amountLocalMinor } = formOf(merchant, input);
    const at = now();
    return transactionWithRetry(db, async (tx) => {
      await repo.lockMerchantRequests(tx, merchant.id);
      // Limits (USDT amounts) and the wallet block list: a refusal rolls back, nothing written.
      await limits.enforce(tx, {
        merchantId: merchant.id,
        kind: 'withdrawal',
        amountMinor,
        walletAddress: input.address,
      });
      const isFree = (await freeLeftToday(merchant, tx)) > 0;
      const fee = isFree ? 0n : feeMinor;
      const feeLocalMinor = fee === 0n ? 0n : usdtToLocalMinor(fee, rate, merchant.currency);
      const row = await repo.insert(tx, {
        merchantId: merchant.id,
        withdrawalNo: newTradeNo('W', at),
        createdByUserId: actor.userId,
        network: input.network,
        address: input.address.trim(),
        amountUsdtMinor: amountMinor,
        feeUsdtMinor: fee,
        isFree,
        rate,
        localCurrency: merchant.currency,
        amountLocalMinor,
        feeLocalMinor,
        createdAt: at,
      });
      await recordSecurityEvent(tx, actor.client, {
        type: 'withdrawal_requested',
        merchantId: merchant.id,
        userId: actor.userId,
        detail: {
          withdrawal_no: row.withdrawalNo,
          amount: fromMinor(amountMinor, USDT),
          network: row.network,
          address: row.address,
        },
      });
      // Last: the merchant's balance row is locked from here to the commit only.
      return holdWithdrawal(ledger, tx, row);
    });
  }

  async function findForMerchant(merchantId: number, no: string): Promise<WithdrawalRow> {
    const row = /^W\d{8,40}$/.test(no) ? await repo.findByNo(db, merchantId, no) : undefined;
    if (!row) throw notFound('The withdrawal was not found.');
    return row;
  }

  /** The operator's look before deciding: any merchant's withdrawal, with the merchant's number. */
  async function findAny(no: string) {
    const found = await repo.findAnyByNo(db, no);
    if (!found) throw notFound(`No withdrawal has the number ${no}.`);
    return found;
  }

  /**
   * An operator's decision, in the caller's transaction, only from the state it names (approve: under
   * review; pay: approved; reject: under review unless it says approved): of two decisions sent at once
   * exactly one applies and the other answers 409. Records who, when and why, moves the money and logs
   * it for the merchant.
   */
  async function decide(tx: Tx, seen: WithdrawalRow, decision: Decision): Promise<WithdrawalRow> {
    const { to } = decision;
    const from: WithdrawalStatus =
      to === 'approved' ? 'pending_review' : to === 'paid' ? 'approved' : (decision.from ?? 'pending_review');
    const current = seen.status as WithdrawalStatus;
    const hint =
      to === 'rejected' && from === 'pending_review'
        ? ' To reject an approved withdrawal, say so (from: approved).'
        : '';
    if (current !== from || !canWithdrawalTransition(from, to)) {
      throw conflict(
        `Withdrawal ${seen.withdrawalNo} is ${current}; it cannot become ${to}.${current === 'approved' ? hint : ''}`,
        ERROR_CODES.invalidTransition,
      );
    }
    const at = now();
    let set: Parameters<typeof repo.transition>[3];
    if (to === 'approved') set = { status: to, approvedAt: at, approvedBy: decision.operator };
    else if (to === 'rejected') {
      set = { status: to, rejectedAt: at, rejectedBy: decision.operator, rejectReason: decision.reason };
    } else {
      const txHash = decision.txHash?.trim().toLowerCase() ?? '';
      if (!TX_HASH_PATTERNS[seen.network as WalletNetwork].test(txHash)) {
        throw ValidationError.field(
          'tx_hash',
          seen.network === 'ERC20'
            ? 'An ERC20 transaction hash is 0x followed by 64 hexadecimal digits.'
            : 'A TRC20 transaction hash is 64 hexadecimal digits.',
        );
      }
      const used = await repo.findByTxHash(tx, txHash);
      if (used) throw conflict(`The transaction ${txHash} already paid withdrawal ${used.withdrawalNo}.`);
      set = { status: to, paidAt: at, paidBy: decision.operator, txHash };
    }
    const updated = await repo.transition(tx, seen.id, from, set);
    if (!updated) {
      throw conflict(
        `Withdrawal ${seen.withdrawalNo} is no longer ${from} (another decision came first); it cannot become ${to}.${hint}`,
        ERROR_CODES.invalidTransition,
      );
    }
    if (to !== 'approved') {
      const hold = await ledger.findHoldByKey(tx, updated.merchantId, holdKey(updated.id));
      if (!hold) throw new Error(`Withdrawal ${updated.withdrawalNo} has no hold.`);
      const key = `withdrawal:${updated.id}:${to}`;
      if (to === 'paid') {
        await ledger.capture(tx, {
          merchantId: updated.merchantId,
          holdId: hold.id,
          feeMinor: updated.feeLocalMinor,
          idempotencyKey: key,
          note: updated.txHash,
        });
      } else {
        await ledger.release(tx, {
          merchantId: updated.merchantId,
          holdId: hold.id,
          idempotencyKey: key,
          note: decision.reason,
        });
      }
    }
    await recordSecurityEvent(tx, null, {
      type: `withdrawal_${to}`,
      merchantId: updated.merchantId,
      userId: null,
      detail: {
        withdrawal_no: updated.withdrawalNo,
        operator: decision.operator,
        reason: decision.reason,
        ...(updated.txHash ? { tx_hash: updated.txHash } : {}),
      },
    });
    return updated;
  }

  const listForOps = (filter: { merchantId?: number; status?: string; limit: number }) =>
    repo.listForOps(db, filter);

  return { options, check, request, findForMerchant, findAny, decide, listForOps, present };
}

/**
 * Holds a new withdrawal's amount and fee in the merchant's currency (its request's ledger entry) and keeps
 * the hold on the row; the demo seed's history holds its withdrawals the same way.
 */
export async function holdWithdrawal(
  ledger: Pick<Ledger, 'hold'>,
  tx: Tx,
  row: WithdrawalRow,
): Promise<WithdrawalRow & { holdId: number }> {
  const { hold } = await ledger.hold(tx, {
    merchantId: row.merchantId,
    type: 'withdrawal',
    amountMinor: row.amountLocalMinor + row.feeLocalMinor,
    refType: 'withdrawal',
    refId: String(row.id),
    refNo: row.withdrawalNo,
    note: `${fromMinor(row.amountUsdtMinor, USDT)} USDT ${row.network} ${row.address}`,
    idempotencyKey: holdKey(row.id),
  });
  await repo.setHold(tx, row.id, hold.id);
  return { ...row, holdId: hold.id };
}

/** The demo seed's history: withdrawals written as they ended (held with holdWithdrawal). */
export const seedWithdrawalRow = repo.insert;
