import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import {
  AMOUNT_LIMITS,
  type BlockList,
  KIND_OF_BLOCK_LIST,
  type LimitKind,
  type LimitName,
  LIMIT_NAMES,
  LIMITS_OF_KIND,
  type MerchantLimits,
  PAYEE_ACCOUNT_PATTERN,
} from '@paydesk/shared/limits/limits.schemas.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import { dayRange, localDate } from '@paydesk/shared/time-zone.ts';
import { walletAddressIssue } from '@paydesk/shared/withdrawals/wallet-address.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { AppError, notFound, ValidationError } from '../../lib/errors.ts';
import { ipAllowed, parseIpWhitelist } from '../../lib/ip-whitelist.ts';
import { type ActionContext, merchantIdByNo, runOperatorAction } from '../ops/index.ts';
import {
  type BlockRow,
  limitsRepository as repo,
  type LimitsRow,
  type LimitValues,
} from './limits.repository.ts';

type UsageKey = { merchantId: number; kind: LimitKind; day: string; subject: string };
import type { BlockBody, ClearLimitsBody, SetLimitsBody } from './limits.schemas.ts';

// Limits and risk rules (DESIGN 14). Operators set them per merchant, kind and mode; every change is an
// operator action (who, when, why, what). enforce() runs inside the transaction that creates an order, so
// a refusal (422 limit_exceeded with `limit`, or 422 blocked with `list`) rolls everything back: nothing
// is written. Daily figures are of the merchant's local day and counted in limit_usage by a conditional
// upsert (addUsage), never read-then-write, so racing orders never pass a cap together. Usage is counted
// while the merchant has limits of the kind (a kind's first limit starts it from the day's orders so far),
// per payee account while it has a payees-per-day limit (added later: started from the day's payouts);
// orders count when created, whatever becomes of them.

/** What an order being created brings to the check. */
export type OrderToCheck = {
  merchantId: number;
  kind: LimitKind;
  /** In the kind's currency (USDT for a withdrawal). */
  amountMinor: bigint;
  /** A payout's payee account (as stored: no spaces). */
  payeeAccount?: string;
  /** A withdrawal's wallet address. */
  walletAddress?: string;
  /** A collection's payer IP address, when the merchant's call gave one. */
  payerIp?: string;
};

const NOUN: Record<LimitKind, string> = {
  collection: 'collection',
  payout: 'payout',
  withdrawal: 'withdrawal',
};

const COLUMN: Record<LimitName, keyof LimitValues> = {
  per_order_min: 'perOrderMinMinor',
  per_order_max: 'perOrderMaxMinor',
  daily_amount: 'dailyAmountMinor',
  daily_count: 'dailyCount',
  payee_daily_count: 'payeeDailyCount',
};

const BLOCKED_MESSAGE: Record<BlockList, string> = {
  payee_account: 'This payee account is on the block list: the payout is refused.',
  wallet_address: 'This wallet address is on the block list: the withdrawal is refused.',
  payer_ip: "The payer's IP address is on the block list: the collection is refused.",
};

export function limitExceeded(limit: LimitName, message: string): AppError {
  return new AppError(422, message, { code: ERROR_CODES.limitExceeded, fields: { limit } });
}
export function blocked(list: BlockList): AppError {
  return new AppError(422, BLOCKED_MESSAGE[list], { code: ERROR_CODES.blocked, fields: { list } });
}

const currencyOfKind = (kind: LimitKind, merchantCurrency: string): Currency =>
  kind === 'withdrawal' ? 'USDT' : (merchantCurrency as Currency);

/**
 * A block list entry as stored, or the refusal naming `value`: a payee account (letters and digits, spaces
 * dropped, in capitals), a USDT wallet address (TRON T..., or 0x + 40 hex, kept in lower case), a payer
 * IPv4 or IPv6 address or CIDR block (canonical, host bits clear).
 */
export function normaliseBlockValue(list: BlockList, raw: string): string {
  const text = raw.trim();
  if (list === 'payee_account') {
    const account = text.replace(/\s+/g, '');
    if (!PAYEE_ACCOUNT_PATTERN.test(account)) {
      throw ValidationError.field('value', 'A payee account is 4 to 34 letters and digits.');
    }
    return account.toUpperCase();
  }
  if (list === 'wallet_address') {
    const network = text.startsWith('0x') || text.startsWith('0X') ? 'ERC20' : 'TRC20';
    if (walletAddressIssue(network, text) !== undefined) {
      throw ValidationError.field(
        'value',
        'A wallet address is a TRON address (T followed by 33 letters and digits) or 0x followed by 40 hexadecimal digits, with a valid checksum.',
        ERROR_CODES.invalidWalletAddress,
      );
    }
    return walletKey(text);
  }
  const parsed = parseIpWhitelist(text, 1);
  if (!parsed.ok || parsed.entries.length !== 1) {
    throw ValidationError.field(
      'value',
      'A payer IP is one IPv4 or IPv6 address or CIDR block, e.g. 203.0.113.0/24.',
    );
  }
  return parsed.entries[0];
}

/** A wallet address as its block list entry compares: ERC20 in lower case (its checksum is only case). */
const walletKey = (address: string) => {
  const text = address.trim();
  return /^0x/i.test(text) ? text.toLowerCase() : text;
};

const amountOut = (minor: bigint | null, currency: Currency) =>
  minor === null ? null : fromMinor(minor, currency);

export type LimitsService = ReturnType<typeof createLimitsService>;

export function createLimitsService({ db, now }: { db: Db; now: () => Date }) {
  /**
   * The checks of a new order, in its own transaction (call it before the order's last statement): the
   * block list of its kind, then the limits per order, then the day's amount and count and the payee's
   * count, each added to the day's usage only while it stays within its cap. Throws the refusal.
   */
  async function enforce(tx: Tx, order: OrderToCheck): Promise<void> {
    const found = await blocksAndPerOrder(tx, order);
    if (!found) return;
    const { limits, key, noun, currency } = found;
    const { amountMinor } = order;
    const caps = { amountMinor: limits.dailyAmountMinor, count: limits.dailyCount };
    if (!(await repo.addUsage(tx, key, amountMinor, caps))) {
      throw dailyRefusal(caps, await repo.usageOf(tx, key), amountMinor, noun, currency);
    }
    const payee = payeeKeyOf(order, limits, key);
    if (
      payee &&
      !(await repo.addUsage(tx, payee, amountMinor, { amountMinor: null, count: limits.payeeDailyCount }))
    ) {
      throw payeeRefusal(limits.payeeDailyCount!);
    }
  }

  /**
   * The refusals enforce() would give, read only (no usage added): for a console form before its step-up,
   * so that a payout or withdrawal a limit or block list refuses does not spend the user's Google code or
   * count against their payment password. Only a preview: the order's own transaction still enforces them
   * (another order may take the last of a cap in between).
   */
  async function check(order: OrderToCheck): Promise<void> {
    const found = await blocksAndPerOrder(db, order);
    if (!found) return;
    const { limits, key, noun, currency } = found;
    const { amountMinor } = order;
    const caps = { amountMinor: limits.dailyAmountMinor, count: limits.dailyCount };
    const used = await repo.usageOf(db, key);
    const overAmount = caps.amountMinor !== null && used.amountMinor + amountMinor > caps.amountMinor;
    if (overAmount || (caps.count !== null && used.count + 1 > caps.count)) {
      throw dailyRefusal(caps, used, amountMinor, noun, currency);
    }
    const payee = payeeKeyOf(order, limits, key);
    if (payee && (await repo.usageOf(db, payee)).count + 1 > limits.payeeDailyCount!) {
      throw payeeRefusal(limits.payeeDailyCount!);
    }
  }

  /**
   * The block list of the order's kind and the limits per order (both throw their refusal); then the
   * merchant's limits of the kind and the key of today's usage, or undefined when it has none.
   */
  async function blocksAndPerOrder(dbOrTx: DbOrTx, order: OrderToCheck) {
    await checkBlocks(dbOrTx, order);
    const rules = await repo.rulesOf(dbOrTx, order.merchantId, order.kind);
    const limits = rules?.limits;
    if (!rules || !limits) return undefined;
    const currency = currencyOfKind(order.kind, rules.currency);
    const noun = NOUN[order.kind];
    const { amountMinor } = order;
    if (limits.perOrderMinMinor !== null && amountMinor < limits.perOrderMinMinor) {
      throw limitExceeded(
        'per_order_min',
        `The amount is below this merchant's minimum of ${fromMinor(limits.perOrderMinMinor, currency)} ${currency} per ${noun}.`,
      );
    }
    if (limits.perOrderMaxMinor !== null && amountMinor > limits.perOrderMaxMinor) {
      throw limitExceeded(
        'per_order_max',
        `The amount is above this merchant's maximum of ${fromMinor(limits.perOrderMaxMinor, currency)} ${currency} per ${noun}.`,
      );
    }
    const day = localDate(now(), rules.timezone);
    const key = { merchantId: order.merchantId, kind: order.kind, day, subject: '' };
    return { limits, key, noun, currency };
  }

  /** The day's usage key of the payout's payee account, when its payees-per-day limit applies. */
  const payeeKeyOf = (order: OrderToCheck, limits: LimitsRow, key: UsageKey): UsageKey | undefined =>
    order.kind === 'payout' && limits.payeeDailyCount !== null && order.payeeAccount !== undefined
      ? { ...key, subject: `payee:${order.payeeAccount.replace(/\s+/g, '').toUpperCase()}` }
      : undefined;

  function dailyRefusal(
    caps: { amountMinor: bigint | null; count: number | null },
    used: { amountMinor: bigint; count: number },
    amountMinor: bigint,
    noun: string,
    currency: Currency,
  ): AppError {
    if (caps.amountMinor !== null && used.amountMinor + amountMinor > caps.amountMinor) {
      const left = caps.amountMinor > used.amountMinor ? caps.amountMinor - used.amountMinor : 0n;
      return limitExceeded(
        'daily_amount',
        `This ${noun} would pass today's limit of ${fromMinor(caps.amountMinor, currency)} ${currency} (${fromMinor(left, currency)} ${currency} left today).`,
      );
    }
    return limitExceeded('daily_count', `Today's limit of ${caps.count ?? 0} ${noun}s is reached.`);
  }

  const payeeRefusal = (cap: number) =>
    limitExceeded('payee_daily_count', `Today's limit of ${cap} payouts to this payee account is reached.`);

  async function checkBlocks(tx: DbOrTx, order: OrderToCheck) {
    if (order.kind === 'payout' && order.payeeAccount !== undefined) {
      const value = order.payeeAccount.replace(/\s+/g, '').toUpperCase();
      if (await repo.isBlocked(tx, order.merchantId, 'payee_account', value)) throw blocked('payee_account');
    }
    if (order.kind === 'withdrawal' && order.walletAddress !== undefined) {
      const value = walletKey(order.walletAddress);
      if (await repo.isBlocked(tx, order.merchantId, 'wallet_address', value))
        throw blocked('wallet_address');
    }
    if (order.kind === 'collection' && order.payerIp !== undefined) {
      const entries = (await repo.blocksOf(tx, order.merchantId, 'payer_ip')).map((b) => b.value);
      if (entries.length > 0 && ipAllowed(order.payerIp, entries)) throw blocked('payer_ip');
    }
  }

  /** The limits of a kind as the console's forms show them, with today's use and what is left. */
  async function forMerchant(
    merchantId: number,
    kind: LimitKind,
    dbOrTx: DbOrTx = db,
  ): Promise<MerchantLimits> {
    const rules = await repo.rulesOf(dbOrTx, merchantId, kind);
    if (!rules) throw notFound();
    const currency = currencyOfKind(kind, rules.currency);
    const day = localDate(now(), rules.timezone);
    const l = rules.limits;
    const used = l
      ? await repo.usageOf(dbOrTx, { merchantId, kind, day, subject: '' })
      : { amountMinor: 0n, count: 0 };
    const dailyAmount = l?.dailyAmountMinor ?? null;
    const dailyCount = l?.dailyCount ?? null;
    return {
      kind,
      currency,
      day,
      per_order_min: amountOut(l?.perOrderMinMinor ?? null, currency),
      per_order_max: amountOut(l?.perOrderMaxMinor ?? null, currency),
      daily_amount: amountOut(dailyAmount, currency),
      daily_count: dailyCount,
      payee_daily_count: kind === 'payout' ? (l?.payeeDailyCount ?? null) : null,
      used_amount: fromMinor(used.amountMinor, currency),
      used_count: used.count,
      remaining_amount:
        dailyAmount === null
          ? null
          : fromMinor(dailyAmount > used.amountMinor ? dailyAmount - used.amountMinor : 0n, currency),
      remaining_count: dailyCount === null ? null : Math.max(0, dailyCount - used.count),
    };
  }

  const merchantId = (no: string, mode: Mode) => merchantIdByNo(db, no, mode);

  /** The operator's view of a merchant's limits of every kind that has some. */
  async function listLimits(no: string, mode: Mode) {
    const id = await merchantId(no, mode);
    const rows = await repo.limitsOfMerchant(db, id);
    return Promise.all(
      rows.map(async (row) => ({ merchant: no, mode, ...(await forMerchant(id, row.kind as LimitKind)) })),
    );
  }

  function limitsView(row: LimitsRow | undefined, kind: LimitKind, currency: Currency) {
    return {
      kind,
      currency,
      per_order_min: amountOut(row?.perOrderMinMinor ?? null, currency),
      per_order_max: amountOut(row?.perOrderMaxMinor ?? null, currency),
      daily_amount: amountOut(row?.dailyAmountMinor ?? null, currency),
      daily_count: row?.dailyCount ?? null,
      payee_daily_count: row?.payeeDailyCount ?? null,
    };
  }

  /** limit:set: the limits given, the others of the kind kept; min above max is refused naming per_order_min. */
  async function setLimits(body: SetLimitsBody, context: ActionContext) {
    const id = await merchantId(body.merchant, body.mode);
    const given = LIMIT_NAMES.filter((name) => body[name] !== undefined);
    if (given.length === 0) {
      throw ValidationError.field(
        'limit',
        `Give at least one limit: ${LIMITS_OF_KIND[body.kind].join(', ')}.`,
      );
    }
    for (const name of given) {
      if (!LIMITS_OF_KIND[body.kind].includes(name)) {
        throw ValidationError.field(name, `The ${name} limit is of payouts only.`);
      }
    }
    const { reason: _reason, ...request } = body;
    return runOperatorAction(db, 'limit.set', context, request, id, async (tx) => {
      const rules = await repo.rulesOf(tx, id, body.kind);
      const currency = currencyOfKind(body.kind, rules?.currency ?? 'USDT');
      const current = await repo.lockLimits(tx, id, body.kind);
      const values: LimitValues = {
        perOrderMinMinor: current?.perOrderMinMinor ?? null,
        perOrderMaxMinor: current?.perOrderMaxMinor ?? null,
        dailyAmountMinor: current?.dailyAmountMinor ?? null,
        dailyCount: current?.dailyCount ?? null,
        payeeDailyCount: current?.payeeDailyCount ?? null,
      };
      for (const name of given) {
        const value = body[name]!;
        if (AMOUNT_LIMITS.includes(name)) {
          try {
            (values as Record<string, unknown>)[COLUMN[name]] = toMinor(String(value), currency);
          } catch (error) {
            throw ValidationError.field(name, (error as Error).message);
          }
        } else {
          (values as Record<string, unknown>)[COLUMN[name]] = Number(value);
        }
      }
      if (
        values.perOrderMinMinor !== null &&
        values.perOrderMaxMinor !== null &&
        values.perOrderMinMinor > values.perOrderMaxMinor
      ) {
        throw ValidationError.field(
          'per_order_min',
          'The per_order_min may not be greater than the per_order_max.',
        );
      }
      const row = await repo.saveLimits(tx, id, body.kind, values, context.operator.name, now());
      // The kind's first limit: its orders were not counted until now, so today's count starts from them.
      // A payees-per-day limit added to a kind counted already: its payees were not counted per account
      // (enforce counts them only under that limit), so today's counts per payee start from the payouts.
      if (rules) {
        const day = localDate(now(), rules.timezone);
        const range = dayRange(day, rules.timezone);
        const key = { merchantId: id, kind: body.kind, day };
        if (!current) await repo.seedUsage(tx, key, range);
        else if (current.payeeDailyCount === null && values.payeeDailyCount !== null)
          await repo.seedUsage(tx, key, range, { payeesOnly: true });
      }
      return { data: { merchant: body.merchant, mode: body.mode, ...limitsView(row, body.kind, currency) } };
    });
  }

  /** limit:clear: the limits named (none named: every limit of the kind); a kind left with none is deleted. */
  async function clearLimits(body: ClearLimitsBody, context: ActionContext) {
    const id = await merchantId(body.merchant, body.mode);
    const names = body.limit && body.limit.length > 0 ? body.limit : [...LIMIT_NAMES];
    const { reason: _reason, ...request } = body;
    return runOperatorAction(db, 'limit.clear', context, { ...request, limit: names }, id, async (tx) => {
      const rules = await repo.rulesOf(tx, id, body.kind);
      const currency = currencyOfKind(body.kind, rules?.currency ?? 'USDT');
      const current = await repo.lockLimits(tx, id, body.kind);
      if (!current)
        return {
          data: {
            merchant: body.merchant,
            mode: body.mode,
            ...limitsView(undefined, body.kind, currency),
            cleared: [],
          },
        };
      const values: LimitValues = {
        perOrderMinMinor: current.perOrderMinMinor,
        perOrderMaxMinor: current.perOrderMaxMinor,
        dailyAmountMinor: current.dailyAmountMinor,
        dailyCount: current.dailyCount,
        payeeDailyCount: current.payeeDailyCount,
      };
      for (const name of names) (values as Record<string, unknown>)[COLUMN[name]] = null;
      const left = Object.values(values).some((value) => value !== null);
      const row = left
        ? await repo.saveLimits(tx, id, body.kind, values, context.operator.name, now())
        : undefined;
      if (!left) await repo.deleteLimits(tx, id, body.kind);
      return {
        data: {
          merchant: body.merchant,
          mode: body.mode,
          ...limitsView(row, body.kind, currency),
          cleared: names,
        },
      };
    });
  }

  const blockView = (row: BlockRow, no: string, mode: Mode) => ({
    id: row.id,
    merchant: no,
    mode,
    list: row.list as BlockList,
    kind: KIND_OF_BLOCK_LIST[row.list as BlockList],
    value: row.value,
    created_by: row.createdBy,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
  });

  async function listBlocks(no: string, mode: Mode, list?: BlockList) {
    const id = await merchantId(no, mode);
    return (await repo.blocksOf(db, id, list)).map((row) => blockView(row, no, mode));
  }

  /** block:add: the entry, normalised (a malformed one is refused naming `value`); already there: kept. */
  async function addBlock(body: BlockBody, context: ActionContext) {
    const id = await merchantId(body.merchant, body.mode);
    const value = normaliseBlockValue(body.list, body.value);
    const { reason: _reason, ...request } = body;
    return runOperatorAction(db, 'block.add', context, { ...request, value }, id, async (tx) => {
      const added = await repo.addBlock(tx, {
        merchantId: id,
        list: body.list,
        value,
        createdBy: context.operator.name,
        reason: body.reason,
        createdAt: now(),
      });
      const row = added ?? (await repo.blocksOf(tx, id, body.list)).find((b) => b.value === value)!;
      return { data: { ...blockView(row, body.merchant, body.mode), added: added !== undefined } };
    });
  }

  /** block:remove: the entry off its list (not on it: 404, nothing recorded). */
  async function removeBlock(body: BlockBody, context: ActionContext) {
    const id = await merchantId(body.merchant, body.mode);
    const value = normaliseBlockValue(body.list, body.value);
    const { reason: _reason, ...request } = body;
    return runOperatorAction(db, 'block.remove', context, { ...request, value }, id, async (tx) => {
      const removed = await repo.removeBlock(tx, id, body.list, value);
      if (!removed) throw notFound(`${value} is not on the ${body.list} block list of ${body.merchant}.`);
      return { data: blockView(removed, body.merchant, body.mode) };
    });
  }

  /** Housekeeping: drops the day counters older than 40 days (a daily limit reads today's only). */
  async function sweepUsage() {
    const cutoff = new Date(now().getTime() - 40 * 86_400_000).toISOString().slice(0, 10);
    await repo.deleteUsageBefore(db, cutoff);
  }

  return {
    enforce,
    check,
    forMerchant,
    listLimits,
    setLimits,
    clearLimits,
    listBlocks,
    addBlock,
    removeBlock,
    sweepUsage,
  };
}
